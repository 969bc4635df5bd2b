import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from check_geojson import problems  # noqa: E402


class CheckTest(unittest.TestCase):
    def test_swapped_coordinates_are_reported(self) -> None:
        point = {"type": "Point", "coordinates": [48.2, 16.36]}
        fc = {
            "type": "FeatureCollection",
            "features": [{"geometry": point, "properties": {"id": "a"}}],
        }
        self.assertEqual(len(problems(fc)), 1)


if __name__ == "__main__":
    unittest.main()
