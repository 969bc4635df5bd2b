"""realcli's Hydra config groups, shipped in the package as ``realcli.conf`` (pyproject.toml
maps this folder there): found through ``importlib.resources``, not the source tree, so a
wheel install has them too. Your own config dirs compose over these (docs/config.md)."""
