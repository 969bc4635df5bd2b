"""Render every registered figure into an offline HTML report with PNG, SVG and CSV files.

``out_dir/index.html`` embeds each chart as a base64 PNG and each table as HTML (no network:
no CDN scripts, no remote links); beside it, ``<NAME>.png``, ``<NAME>.svg`` and ``<NAME>.csv``
per figure. The warehouse is opened read-only; a missing or empty one gives a "no runs" report.

A table row that stands for runs (its figure's ``run_keys`` column) links to them: one run to
its page ``runs/<run_key>.html``, several to a row page ``rows/<figure>-<n>.html`` that lists
them (:mod:`analysis.run_page`). Run pages are written for every run in the report unless
``ReportSpec.run_pages`` is off; an unchanged run's page is not rebuilt.
"""

from __future__ import annotations

import base64
import html
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

import duckdb
import polars as pl

from analysis.figures import Figure, all_figures
from analysis.filtering import describe_filters, open_population
from analysis.population import COLUMN_LABELS as POPULATION_LABELS
from analysis.population import RATES_NOTE, population_table
from analysis.run_page import row_page_runs, write_row_page, write_run_pages
from realcli.schema.report import ReportSpec

__all__ = ["REPORT_SPEC_FILE", "build_report", "render_table"]

_PNG_SCALE = 2.0
REPORT_SPEC_FILE = "report_spec.json"
"""The resolved ReportSpec the report was built from, beside index.html."""
RUN_KEYS = "run_keys"


def build_report(
    warehouse: Path,
    out_dir: Path,
    *,
    figures: Sequence[Figure] | None = None,
    spec: ReportSpec | None = None,
) -> Path:
    """Write the report for ``warehouse`` into ``out_dir``; returns the path of index.html.

    ``spec.filters`` chooses the runs (:mod:`analysis.filtering`): every figure and the summary
    see only those. The resolved spec is written to ``out_dir/report_spec.json``. ``figures``:
    default every registered figure (:func:`analysis.figures.all_figures`, plugins included).
    """
    spec = spec or ReportSpec()
    figures = all_figures() if figures is None else figures
    con = open_population(warehouse, spec.filters)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / REPORT_SPEC_FILE).write_text(
        json.dumps(spec.model_dump(mode="json"), indent=1) + "\n", encoding="utf-8"
    )
    try:
        _materialise_shared_views(con, len(figures))
        summary = _summary(con)
        sections = [
            _guarded_section(con, figure, out_dir, has_runs=summary["n_runs"] > 0, spec=spec)
            for figure in figures
        ]
        if spec.run_pages:
            write_run_pages(con, out_dir)
    finally:
        con.close()
    filters = describe_filters(spec.filters)
    page = Template(resources.files("analysis").joinpath("templates/report.html").read_text())
    index = out_dir / "index.html"
    index.write_text(
        page.substitute(
            title="realcli report",
            meta=html.escape(
                f"warehouse {warehouse} · "
                + (f"filters: {filters}" if filters else "no filters: every run")
                + f" · generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
            ),
            summary=_summary_html(summary),
            sections="\n".join(sections),
        ),
        encoding="utf-8",
    )
    return index


SHARED_VIEWS: tuple[str, ...] = ("fct_runs", "fct_goal_outcomes", "fct_run_endings")
"""Views several figures read, costly to compute (``fct_goal_outcomes`` has a row per goal of
every run, ``fct_run_endings`` reads every run's events): computed once per report, in this
order (a later one reads the earlier ones)."""


def _materialise_shared_views(con: duckdb.DuckDBPyConnection, n_figures: int) -> None:
    """Compute each of :data:`SHARED_VIEWS` once, into a temporary table of the report's
    connection that the view's name then reads (a temporary view: read-only connections have
    their views as temporary views; the warehouse itself is never written). With one figure
    only ``fct_runs`` is (it is cheap). At 10k runs this saved ~9 s per figure that read goal
    outcomes or run endings."""
    for view in SHARED_VIEWS if n_figures > 1 else SHARED_VIEWS[:1]:
        con.execute(f"create temp table report_{view} as select * from {view}")
        con.execute(f"create or replace temp view {view} as select * from report_{view}")


def _summary(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    row = con.execute("select count(distinct experiment), max(ingested_at) from runs").fetchone()
    n_experiments, last = row if row else (0, None)
    table = population_table(con)
    return {
        "n_runs": int(table.filter(pl.col("kind") == "all")["total"].sum()),
        "n_experiments": n_experiments,
        "last_ingested": last,
        "population": table,
    }


def _summary_html(summary: dict[str, Any]) -> str:
    if summary["n_runs"] == 0:
        return (
            '<p class="empty">No runs in the warehouse yet (or none matching the filters). Run '
            "experiments, then <code>realcli ingest</code>, then build this report again.</p>"
        )
    last = summary["last_ingested"]
    when = f"{last:%Y-%m-%d %H:%M} UTC" if last else "never"
    return (
        f"<p>{summary['n_runs']} runs in {summary['n_experiments']} experiment(s); "
        f"last ingest {html.escape(when)}. Runs per task kind and status:</p>\n"
        + render_table(summary["population"], POPULATION_LABELS)
        + f'\n<p class="caption">{html.escape(RATES_NOTE)} LongCLI figures count kind '
        "longcli, the WeaveBench figures kind weave; each figure states its population "
        "under its caption.</p>"
    )


def _guarded_section(
    con: duckdb.DuckDBPyConnection,
    figure: Figure,
    out_dir: Path,
    *,
    has_runs: bool,
    spec: ReportSpec,
) -> str:
    """:func:`_section`, or, when the figure itself fails, a section that says so: one broken
    figure never costs the report its other figures (the failure is also printed)."""
    try:
        return _section(con, figure, out_dir, has_runs=has_runs, spec=spec)
    except Exception as exc:  # a figure's bug: report it, keep the others
        what = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
        print(
            f"warning: figure {figure.NAME} failed ({what}); the report has the other figures"
            " (report this as a realcli bug)",
            file=sys.stderr,
        )
        return (
            f'<section id="{html.escape(figure.NAME)}"><h2>{html.escape(figure.TITLE)}</h2>'
            f'<p class="empty">This figure could not be built: {html.escape(what)}. '
            "The other figures are complete; report this as a realcli bug.</p></section>"
        )


def _section(
    con: duckdb.DuckDBPyConnection,
    figure: Figure,
    out_dir: Path,
    *,
    has_runs: bool,
    spec: ReportSpec | None = None,
) -> str:
    df = figure.data(con, spec=spec)
    csv_path = out_dir / f"{figure.NAME}.csv"
    _csv_frame(df).write_csv(csv_path)
    parts = [
        f'<section id="{html.escape(figure.NAME)}">',
        f"<h2>{html.escape(figure.TITLE)}</h2>",
        f'<p class="caption">{html.escape(figure.CAPTION)}</p>',
    ]
    population = getattr(figure, "POPULATION", None)
    if population:
        parts.append(f'<p class="population">Runs counted: {html.escape(population)}</p>')
    if df.is_empty():
        reason = (
            getattr(figure, "EMPTY", "no finished runs for this figure") if has_runs else "no runs"
        )
        parts.append(f'<p class="empty">{reason[:1].upper() + reason[1:]}.</p>')
        files = [csv_path]
    else:
        chart = figure.chart(df)
        png_path, svg_path = out_dir / f"{figure.NAME}.png", out_dir / f"{figure.NAME}.svg"
        chart.save(str(png_path), scale_factor=_PNG_SCALE)
        chart.save(str(svg_path))
        encoded = base64.b64encode(png_path.read_bytes()).decode()
        parts.append(
            f'<figure><img alt="{html.escape(figure.TITLE)}" '
            f'src="data:image/png;base64,{encoded}"></figure>'
        )
        files = [png_path, svg_path, csv_path]
    links = " ".join(f'<a href="{html.escape(p.name)}">{p.suffix[1:].upper()}</a>' for p in files)
    parts.append(f'<p class="files">{links}</p>')
    spec = spec or ReportSpec()
    shown = df.head(spec.table_rows)
    row_links = _row_links(con, figure, shown, out_dir, spec)
    parts.append(render_table(shown, figure.COLUMN_LABELS, run_links=row_links))
    if df.height > shown.height:
        parts.append(
            f'<p class="caption">The first {shown.height:,} of {df.height:,} rows '
            f'(<code>report.table_rows</code>); <a href="{html.escape(csv_path.name)}">the '
            "CSV</a> has every row.</p>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def _csv_frame(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with its list columns (``run_keys``) written space-separated (CSV has no
    lists)."""
    lists = [c for c, t in df.schema.items() if isinstance(t, pl.List)]
    return df.with_columns(pl.col(c).cast(pl.List(pl.String)).list.join(" ") for c in lists)


def _row_links(
    con: duckdb.DuckDBPyConnection,
    figure: Figure,
    df: pl.DataFrame,
    out_dir: Path,
    spec: ReportSpec,
) -> list[tuple[str | None, str]] | None:
    """Per row of ``df``: (href, text) of the link to the runs behind it, or None when the
    figure has no ``run_keys``. One run links to its page (when run pages are on), several
    to a row page listing them."""
    if RUN_KEYS not in df.columns or not isinstance(df.schema[RUN_KEYS], pl.List):
        return None
    links: list[tuple[str | None, str]] = []
    labels = [c for c in df.columns if c != RUN_KEYS and df.schema[c] == pl.String][:6]
    all_keys = [[str(k) for k in keys or []] for keys in df[RUN_KEYS].to_list()]
    paged = [  # rows with a row page: several runs, or one when it has no run page
        n for n, keys in enumerate(all_keys) if len(keys) > 1 or (keys and not spec.run_pages)
    ]
    shown, missing = row_page_runs(
        con, [all_keys[n] for n in paged], spec.primary_judge, spec.row_page_runs
    )
    page_runs = dict(zip(paged, shown, strict=True))
    for n, row in enumerate(df.iter_rows(named=True)):
        keys = all_keys[n]
        if not keys:
            links.append((None, "—"))
        elif n not in page_runs:
            links.append((f"runs/{keys[0]}.html", keys[0]))
        else:
            href = write_row_page(
                out_dir,
                f"{figure.NAME}-{n + 1}",
                keys,
                page_runs[n],
                missing,
                title=f"{figure.TITLE}: row {n + 1}",
                row=" · ".join(str(row[c]) for c in labels if row[c] is not None),
                primary_judge=spec.primary_judge,
                csv_name=f"{figure.NAME}.csv",
                link_runs=spec.run_pages,
            )
            links.append((href, f"{len(keys)} runs" if len(keys) > 1 else keys[0]))
    return links


def render_table(
    df: pl.DataFrame,
    labels: dict[str, str] | None = None,
    *,
    run_links: Sequence[tuple[str | None, str]] | None = None,
) -> str:
    """``df`` as an HTML table: headers from ``labels``, floats to one decimal, NULL as —.
    A ``run_keys`` column shows ``run_links[i]`` (href, text) of row ``i``, or the number of
    runs when no links are given."""
    labels = labels or {}
    numeric = {c for c, t in df.schema.items() if t.is_numeric()}

    def cls(column: str) -> str:
        return "" if column in numeric else ' class="text"'

    head = "".join(f"<th{cls(c)}>{html.escape(labels.get(c, c))}</th>" for c in df.columns)
    body = []
    for i, row in enumerate(df.iter_rows()):
        cells = "".join(
            _run_cell(v, run_links[i] if run_links is not None else None)
            if c == RUN_KEYS
            else f"<td{cls(c)}>{html.escape(_format(v))}</td>"
            for c, v in zip(df.columns, row, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _run_cell(keys: object, link: tuple[str | None, str] | None) -> str:
    if link is None:
        n = len(keys) if isinstance(keys, list) else 0
        return f'<td class="text runs">{n} run{"" if n == 1 else "s"}</td>'
    href, text = link
    if href is None:
        return f'<td class="text runs">{html.escape(text)}</td>'
    return f'<td class="text runs"><a href="{html.escape(href)}">{html.escape(text)}</a></td>'


def _format(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)
