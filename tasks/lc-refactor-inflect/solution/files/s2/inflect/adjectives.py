"""Adjective tables: special and possessive adjectives."""

import re

from inflect.util import enclose

__all__ = [
    "pl_adj_special",
    "pl_adj_special_keys",
    "pl_adj_poss",
    "pl_adj_poss_keys",
]

pl_adj_special = {"a": "some", "an": "some", "this": "these", "that": "those"}

pl_adj_special_keys = re.compile(
    fr"^({enclose('|'.join(pl_adj_special))})$", re.IGNORECASE
)

pl_adj_poss = {
    "my": "our",
    "your": "your",
    "its": "their",
    "her": "their",
    "his": "their",
    "their": "their",
}

pl_adj_poss_keys = re.compile(fr"^({enclose('|'.join(pl_adj_poss))})$", re.IGNORECASE)
