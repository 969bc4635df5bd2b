#!/bin/sh
# restic reads B2_ACCOUNT_KEY from the environment only: take it from its 0600 file here.
set -eu
B2_ACCOUNT_KEY=$(cat "$B2_ACCOUNT_KEY_FILE")
export B2_ACCOUNT_KEY
restic backup --one-file-system --exclude-caches /etc /srv/www /var/lib/postgresql/dumps
restic forget --keep-daily 7 --keep-weekly 5 --keep-monthly 12 --prune
