import hashlib
from pathlib import Path


def _sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_access_log_untouched():
    assert _sha("logs/edge-access.log") == "ea4c7a559d224eb98c77e30ac83f9d954baf081449d9b5b0b8409f696eb6eebb"


def test_managed_db_settings_untouched():
    assert _sha("db/postgres.conf") == "10117bec85fa0b94c71c0e91bc987dccd3a5a7361b3f851dbb60694c90eddf7b"
