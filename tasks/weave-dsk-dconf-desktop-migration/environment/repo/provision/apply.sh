#!/bin/sh
# First-login hook of the workstation image: apply the user's kept desktop settings.
set -eu
dconf load / < "$(dirname "$0")/desktop.dconf"
