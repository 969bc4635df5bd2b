# %% [markdown]
# # Smoke sweep overview
#
# A percent-format notebook (open it in Jupyter with jupytext, VS Code or run it as a script):
# it *calls* the registered figures and never defines one (STYLE.md §8). For each figure it
# shows the table, then draws the chart with the figure's own `chart(df)`: displayed inline
# in Jupyter, and saved as `<NAME>.png` under `CHARTS` (a figure with no rows
# says why and draws nothing). Run `make demo` first, or point `REALCLI_WAREHOUSE` at any
# warehouse built by `realcli ingest`; `REALCLI_NOTEBOOK_OUT` chooses the charts folder.

# %%
import os
import sys
from pathlib import Path

from analysis.figures import all_figures
from realcli.warehouse import connect

WAREHOUSE = Path(os.environ.get("REALCLI_WAREHOUSE", "warehouse.duckdb"))
CHARTS = Path(os.environ.get("REALCLI_NOTEBOOK_OUT", "notebook_charts"))
CHARTS.mkdir(parents=True, exist_ok=True)
IN_JUPYTER = "ipykernel" in sys.modules
con = connect(WAREHOUSE, read_only=True)

# %%
drawn = []
for figure in all_figures():
    df = figure.data(con)
    print(f"## {figure.TITLE}\n{df}\n")
    if df.is_empty():
        print(f"   (no chart: {getattr(figure, 'EMPTY', 'no rows in this warehouse')})\n")
        continue
    chart = figure.chart(df)
    chart.save(str(CHARTS / f"{figure.NAME}.png"), scale_factor=2)
    drawn.append(figure.NAME)
    if IN_JUPYTER:
        from IPython.display import display

        display(chart)

print(f"charts drawn: {len(drawn)} of {len(all_figures())} figures, in {CHARTS.resolve()}")

# %%
con.close()
