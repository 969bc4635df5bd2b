"""Paper tables and figures, regenerated from the warehouse (read-only).

Each module under :mod:`analysis.figures` is one table or figure: ``data(con) -> polars.DataFrame``
plus ``chart(df) -> altair chart``; :func:`analysis.figures.all_figures` lists them and
:func:`analysis.report.build_report` renders them all (``python -m analysis report``).
realcli never imports this package.
"""

__all__: list[str] = []
