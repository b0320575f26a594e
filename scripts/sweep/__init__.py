"""Sweeps of model-versus-search comparisons: cells as plain dicts, run locally or on a
Dask cluster, stored so that an interrupted sweep resumes, and rendered as tables and plots."""
