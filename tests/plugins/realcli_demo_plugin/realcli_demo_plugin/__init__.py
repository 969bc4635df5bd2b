"""realcli test plugin: a harness (``demo``) and a figure (``demo_runs_per_harness``)."""
