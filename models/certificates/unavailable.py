"""Why a certificate is not made: :class:`CertificateUnavailable`, raised wherever the
maker finds it (the arguments, the proof-logging runs, the checker's verdict)."""


class CertificateUnavailable(Exception):
    """No certificate, for the reason given: the service's ``certificate_unavailable``."""
