"""Cost accounting and cost caps of the gateway.

Cost per call comes from the model's price table (``model.pricing`` in ``conf/model/``, USD
per million tokens). Caps are checked *before* each call: once a run's spend reaches
``budget.run_usd``, or the sweep's (all runs of the experiment, across resumes) reaches
``budget.sweep_usd``, the gateway refuses further calls with an error the agent cannot
retry, and :attr:`Meter.exceeded` tells the runner to end the run with a ``cost_cap`` error
event. A run may overshoot its cap by at most the call that crossed it.

The sweep's spend is a small JSON file shared by concurrent runs (joblib workers), updated
under ``flock``: ``{"usd": total, "calls": n}``.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from realcli.gateway.wire import Usage

__all__ = ["Meter", "Pricing", "SweepSpend"]


@dataclass(frozen=True)
class Pricing:
    """USD per million tokens. Cached input tokens cost ``cached_input_per_mtok`` (default:
    the input price) and are part of ``tokens_in``."""

    input_per_mtok: float = 0.0
    output_per_mtok: float = 0.0
    cached_input_per_mtok: float | None = None

    def cost(self, usage: Usage) -> float:
        cached = min(usage.tokens_cached, usage.tokens_in)
        cached_price = self.cached_input_per_mtok
        if cached_price is None:
            cached_price = self.input_per_mtok
        usd = (usage.tokens_in - cached) * self.input_per_mtok
        usd += cached * cached_price + usage.tokens_out * self.output_per_mtok
        return usd / 1_000_000


class SweepSpend:
    """The spend of every run of one sweep, in a JSON file shared across processes."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _update(self, usd: float) -> float:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            raw = b""
            while chunk := os.read(fd, 65536):
                raw += chunk
            try:
                state = json.loads(raw or b"{}")
            except ValueError:
                state = {}
            total = float(state.get("usd", 0.0)) + usd
            if usd:
                data = json.dumps({"usd": total, "calls": int(state.get("calls", 0)) + 1}).encode()
                os.lseek(fd, 0, os.SEEK_SET)
                os.ftruncate(fd, 0)
                os.write(fd, data)
                os.fsync(fd)
            return total
        finally:
            os.close(fd)  # releases the lock

    def total(self) -> float:
        return self._update(0.0)

    def add(self, usd: float) -> float:
        return self._update(usd)


class Meter:
    """Prices calls and enforces the run and sweep caps (thread-safe)."""

    def __init__(
        self,
        pricing: Pricing | None = None,
        *,
        run_cap_usd: float | None = None,
        sweep_cap_usd: float | None = None,
        sweep: SweepSpend | None = None,
    ) -> None:
        if sweep_cap_usd is not None and sweep is None:
            raise ValueError("a sweep cap needs a SweepSpend file")
        self.pricing = pricing or Pricing()
        self.run_cap_usd = run_cap_usd
        self.sweep_cap_usd = sweep_cap_usd
        self.sweep = sweep
        self.run_usd = 0.0
        self.exceeded = threading.Event()
        self.reason = ""
        self._lock = threading.Lock()

    def cost(self, usage: Usage) -> float:
        return self.pricing.cost(usage)

    def refuse(self) -> str | None:
        """Why the next call must be refused (a cap is reached), or None."""
        with self._lock:
            if self.run_cap_usd is not None and self.run_usd >= self.run_cap_usd:
                return self._trip(
                    f"run cost cap reached: ${self.run_usd:.6f} spent, cap ${self.run_cap_usd:g} "
                    "(budget.run_usd)"
                )
            if self.sweep_cap_usd is not None and self.sweep is not None:
                total = self.sweep.total()
                if total >= self.sweep_cap_usd:
                    return self._trip(
                        f"sweep cost cap reached: ${total:.6f} spent by this experiment, cap "
                        f"${self.sweep_cap_usd:g} (budget.sweep_usd)"
                    )
        return None

    def _trip(self, reason: str) -> str:
        self.reason = reason
        self.exceeded.set()
        return reason

    def add(self, usd: float) -> None:
        with self._lock:
            self.run_usd += usd
            if self.sweep is not None and usd:
                self.sweep.add(usd)
