# %% [markdown]
# # Smoke sweep overview
#
# A percent-format notebook (open it in Jupyter with jupytext, VS Code or run it as a script):
# it *calls* the registered figures and never defines one (STYLE.md §8). Run `make demo` first,
# or point `WAREHOUSE` at any warehouse built by `realcli ingest`.

# %%
import os
from pathlib import Path

from analysis.figures import FIGURES
from realcli.warehouse import connect

WAREHOUSE = Path(os.environ.get("REALCLI_WAREHOUSE", "warehouse.duckdb"))
con = connect(WAREHOUSE, read_only=True)

# %%
for figure in FIGURES:
    df = figure.data(con)
    print(f"## {figure.TITLE}\n{df}\n")

# %%
con.close()
