"""Runner: plan and execute runs (the only layer that imports Hydra)."""
