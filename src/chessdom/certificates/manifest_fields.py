"""The typed fields of ``manifest.json``: each read as the contract types it, or
ContractError naming the field (:mod:`.manifest` reads the whole)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from chessdom.certificates.contract import MANIFEST, MAX_CERTIFICATE_BYTES, ContractError

_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Listed:
    """A file the manifest lists: its plain name, size and SHA-256."""

    file: str
    bytes: int
    sha256: str


def shortened(value) -> str:
    return repr(value)[:60]


def typed(mapping: dict, name: str, kind: type, label: str | None = None):
    value = mapping.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ContractError(f"{label or name} must be a JSON {kind.__name__}, got {shortened(value)}")
    return value


def integer(mapping: dict, name: str, most: int, label: str | None = None) -> int:
    value = typed(mapping, name, int, label)
    if not 0 <= value <= most:
        raise ContractError(f"{label or name} must be in 0…{most}, got {value}")
    return value


def choice(mapping: dict, name: str, choices: tuple, label: str | None = None) -> str:
    value = typed(mapping, name, str, label)
    if value not in choices:
        raise ContractError(f"{label or name} must be one of {', '.join(choices)}, got {shortened(value)}")
    return value


def name_list(values: list, label: str, what: str = "square names") -> list:
    if not all(isinstance(name, str) and len(name) <= 32 for name in values):
        raise ContractError(f"{label} must be a list of {what}")
    return values


def listed_entry(entry, label: str, most: int) -> Listed:
    if not isinstance(entry, dict):
        raise ContractError(f"{label} must be a JSON object with file, bytes and sha256")
    name = typed(entry, "file", str, f"{label}.file")
    if not name or Path(name).name != name or name in (".", "..", MANIFEST) or len(name) > 255 \
            or not name.isprintable() or not name.isascii():
        raise ContractError(f"{label}.file must be the plain name of a file beside the manifest, got {shortened(name)}")
    size = integer(entry, "bytes", most, f"{label}.bytes")
    sha256 = typed(entry, "sha256", str, f"{label}.sha256")
    if not _SHA256.fullmatch(sha256):
        raise ContractError(f"{label}.sha256 must be 64 lowercase hex digits")
    return Listed(name, size, sha256)


def distinct_and_within(files: dict[str, Listed]) -> dict[str, Listed]:
    names = [listed.file for listed in files.values()]
    if len(set(names)) != len(names):
        raise ContractError("every file the manifest lists must have a name of its own")
    total = sum(listed.bytes for listed in files.values())
    if total > MAX_CERTIFICATE_BYTES:
        raise ContractError(f"the files listed take {total} bytes, more than the contract's {MAX_CERTIFICATE_BYTES}")
    return files
