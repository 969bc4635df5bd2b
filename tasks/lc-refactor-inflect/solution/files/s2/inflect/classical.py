"""Classical-mode settings."""


__all__ = [
    "def_classical",
    "all_classical",
    "no_classical",
]

# SUPPORT CLASSICAL PLURALIZATIONS

def_classical = dict(
    all=False, zero=False, herd=False, names=True, persons=False, ancient=False
)

all_classical = {k: True for k in def_classical}
no_classical = {k: False for k in def_classical}
