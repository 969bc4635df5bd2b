"""Exact money amounts for ledgerlite (provided component; see docs/REQUIREMENTS.md, section 2).

`Amount` is one quantity of one commodity, `MixedAmount` a bag of quantities in several
commodities. Quantities are `decimal.Decimal`, never floats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import Iterable, Mapping

__all__ = [
    "Amount",
    "AmountError",
    "MixedAmount",
    "SYMBOLS",
    "format_amount",
    "parse_amount",
]

#: Single-character commodity symbols; any other commodity is a run of ASCII letters.
SYMBOLS = "$€£¥"

_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_COMMODITY = r"[" + re.escape(SYMBOLS) + r"]|[A-Za-z]+"
_LEFT = re.compile(
    rf"^(?P<sign1>[-+]?)\s*(?P<comm>{_COMMODITY})\s*(?P<sign2>[-+]?)(?P<num>{_NUMBER})$"
)
_RIGHT = re.compile(rf"^(?P<sign>[-+]?)(?P<num>{_NUMBER})(?:\s*(?P<comm>{_COMMODITY}))?$")


class AmountError(ValueError):
    """An amount could not be parsed, or two amounts of different commodities were combined."""


@dataclass(frozen=True)
class Amount:
    """A quantity of one commodity ("" = no commodity)."""

    quantity: Decimal
    commodity: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.quantity, Decimal):
            object.__setattr__(self, "quantity", Decimal(str(self.quantity)))

    @property
    def precision(self) -> int:
        """Digits after the decimal point of the quantity as written (``1.50`` -> 2)."""
        exponent = self.quantity.as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 0

    def is_zero(self) -> bool:
        return self.quantity == 0

    def __neg__(self) -> Amount:
        return Amount(-self.quantity, self.commodity)

    def __add__(self, other: Amount) -> Amount:
        if not isinstance(other, Amount):
            return NotImplemented
        if other.commodity != self.commodity:
            raise AmountError(
                f"cannot add amounts of different commodities: {self.commodity!r} and {other.commodity!r}"
            )
        return Amount(self.quantity + other.quantity, self.commodity)

    def __sub__(self, other: Amount) -> Amount:
        if not isinstance(other, Amount):
            return NotImplemented
        return self + (-other)

    def __mul__(self, factor: Decimal | int) -> Amount:
        if not isinstance(factor, (Decimal, int)):
            return NotImplemented
        return Amount(self.quantity * factor, self.commodity)

    __rmul__ = __mul__

    def __str__(self) -> str:
        return format_amount(self)


def parse_amount(text: str) -> Amount:
    """Parse ``$1,234.50``, ``-$5``, ``$-5``, ``10 EUR``, ``EUR 10``, ``-2.5`` and the like."""
    s = text.strip()
    m = _LEFT.match(s)
    if m:
        if m["sign1"] and m["sign2"]:
            raise AmountError(f"invalid amount: {text!r}")
        sign = m["sign1"] or m["sign2"]
        commodity = m["comm"]
    else:
        m = _RIGHT.match(s)
        if not m:
            raise AmountError(f"invalid amount: {text!r}")
        sign = m["sign"]
        commodity = m["comm"] or ""
    digits = m["num"].replace(",", "")
    if digits.startswith("."):
        digits = "0" + digits
    try:
        quantity = Decimal(digits)
    except InvalidOperation:  # pragma: no cover - the regex only lets valid numbers through
        raise AmountError(f"invalid amount: {text!r}") from None
    if sign == "-":
        quantity = -quantity
    return Amount(quantity, commodity)


def _is_symbol(commodity: str) -> bool:
    return len(commodity) == 1 and not commodity.isalpha()


def format_amount(amount: Amount, precision: int | None = None) -> str:
    """``$1.50`` / ``-$1.50`` for symbols, ``1.50 EUR`` for letter commodities, ``1.50`` without.

    With `precision`, the quantity is rounded half-to-even to that many decimal places (and
    padded with zeros); without it, the quantity keeps its own precision. A quantity that is
    zero after rounding is never written with a minus sign. No thousands separators.
    """
    quantity = amount.quantity
    if precision is not None:
        if precision < 0:
            raise ValueError("precision must be >= 0")
        quantity = quantity.quantize(Decimal(1).scaleb(-precision), rounding=ROUND_HALF_EVEN)
    negative = quantity < 0
    number = format(abs(quantity), "f")
    sign = "-" if negative else ""
    commodity = amount.commodity
    if not commodity:
        return f"{sign}{number}"
    if _is_symbol(commodity):
        return f"{sign}{commodity}{number}"
    return f"{sign}{number} {commodity}"


class MixedAmount:
    """An immutable sum of amounts in any number of commodities."""

    __slots__ = ("_q",)

    def __init__(self, amounts: Iterable[Amount] = ()) -> None:
        q: dict[str, Decimal] = {}
        for a in amounts:
            if not isinstance(a, Amount):
                raise TypeError(f"MixedAmount takes Amount objects, not {type(a).__name__}")
            q[a.commodity] = q.get(a.commodity, Decimal(0)) + a.quantity
        self._q = q

    @classmethod
    def _from(cls, q: Mapping[str, Decimal]) -> MixedAmount:
        m = cls()
        m._q = dict(q)
        return m

    def quantity(self, commodity: str) -> Decimal:
        """The quantity of `commodity` (``Decimal(0)`` when absent)."""
        return self._q.get(commodity, Decimal(0))

    def commodities(self) -> list[str]:
        """Commodities with a non-zero quantity, sorted ("" first)."""
        return sorted(c for c, v in self._q.items() if v != 0)

    def amounts(self) -> list[Amount]:
        """The non-zero components as `Amount` objects, sorted by commodity."""
        return [Amount(self._q[c], c) for c in self.commodities()]

    def is_zero(self) -> bool:
        return all(v == 0 for v in self._q.values())

    def rounded(self, precisions: Mapping[str, int]) -> MixedAmount:
        """Each commodity that has an entry in `precisions` rounded half-to-even to it."""
        out = {}
        for c, v in self._q.items():
            p = precisions.get(c)
            out[c] = v.quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_EVEN) if p is not None else v
        return MixedAmount._from(out)

    def __add__(self, other: MixedAmount | Amount) -> MixedAmount:
        if isinstance(other, Amount):
            other = MixedAmount([other])
        if not isinstance(other, MixedAmount):
            return NotImplemented
        out = dict(self._q)
        for c, v in other._q.items():
            out[c] = out.get(c, Decimal(0)) + v
        return MixedAmount._from(out)

    __radd__ = __add__

    def __neg__(self) -> MixedAmount:
        return MixedAmount._from({c: -v for c, v in self._q.items()})

    def __sub__(self, other: MixedAmount | Amount) -> MixedAmount:
        if isinstance(other, (Amount, MixedAmount)):
            return self + (-other)
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Amount):
            other = MixedAmount([other])
        if not isinstance(other, MixedAmount):
            return NotImplemented
        return self.amounts() == other.amounts()

    def __hash__(self) -> int:
        return hash(tuple(self.amounts()))

    def __repr__(self) -> str:
        inner = ", ".join(format_amount(a) for a in self.amounts())
        return f"MixedAmount([{inner}])"
