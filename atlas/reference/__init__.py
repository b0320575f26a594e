"""Published terms the atlas is compared with (``oeis.json``): data, never used to produce a value."""
