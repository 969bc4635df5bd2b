"""Ground truth (hidden from the agent: tests/ is never in its sandbox)."""

UNITS = {
    "N-01": 412, "N-02": 287, "N-03": 530, "N-04": 198, "N-05": 365,
    "S-01": 244, "S-02": 402, "S-03": 156, "S-05": 318,
    "E-01": 476, "E-02": 133, "E-03": 359, "E-04": 505, "E-05": 221, "E-06": 298,
    "W-01": 347, "W-02": 182, "W-03": 455, "W-04": 264,
}
REGION = {"N": "North", "S": "South", "E": "East", "W": "West"}
TARGET = {
    "E-01": 450, "E-02": 190, "E-03": 340, "E-04": 440, "E-05": 250, "E-06": 280,
    "N-01": 380, "N-02": 320, "N-03": 500, "N-04": 240, "N-05": 350,
    "S-01": 300, "S-02": 370, "S-03": 210, "S-04": 260, "S-05": 330,
    "W-01": 360, "W-02": 230, "W-03": 420, "W-04": 300, "W-05": 200,
}
UNITS_TOL = 3.0
PCT_TOL = 1.0
REGION_PCT_TOL = 0.8


def region_of(store):
    return REGION[store[0]]


def attainment(store):
    return 100.0 * UNITS[store] / TARGET[store]


def region_pct():
    out = {}
    for r in REGION.values():
        ss = [s for s in UNITS if region_of(s) == r]
        out[r] = 100.0 * sum(UNITS[s] for s in ss) / sum(TARGET[s] for s in ss)
    return out


WORST = min(region_pct(), key=region_pct().get)
BEST = max(region_pct(), key=region_pct().get)
