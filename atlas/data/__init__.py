"""The atlas shipped with chessdom: read it with ``chessdom.atlas.Atlas.open()``."""
