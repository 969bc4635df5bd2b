"""How environment/profile/survey was made (PyQGIS, system python3):

QT_QPA_PLATFORM=offscreen /usr/bin/python3 tests/build_survey.py environment/profile/survey
"""

import os
import sys

from qgis.core import (
    QgsApplication,
    QgsCategorizedSymbolRenderer,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransformContext,
    QgsFeature,
    QgsField,
    QgsFillSymbol,
    QgsGeometry,
    QgsProject,
    QgsRendererCategory,
    QgsVectorFileWriter,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant

app = QgsApplication([], False)
app.initQgis()
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
mem = QgsVectorLayer("Polygon?crs=EPSG:32633", "parcels", "memory")
pr = mem.dataProvider()
pr.addAttributes(
    [
        QgsField("parcel_id", QVariant.String),
        QgsField("owner", QVariant.String),
        QgsField("status", QVariant.String),
        QgsField("zone", QVariant.String),
    ]
)
mem.updateFields()
X, Y = 512000, 5041000
P = [
    ("P-101", "Hollis", "active", "R1", [(0, 0), (60, 0), (60, 45), (0, 45)]),
    ("P-102", "Okafor", "active", "R1", [(60, 0), (130, 0), (130, 45), (60, 45)]),
    ("P-103", "Brandt", "retired", "R1", [(130, 0), (180, 0), (180, 45), (130, 45)]),
    ("P-104", "Lindqvist", "active", "R2", [(0, 45), (75, 45), (75, 110), (0, 95)]),
    ("P-105", "Moreau", "active", "R1", [(75, 45), (130, 45), (130, 110), (75, 110)]),
    ("P-106", "Saito", "retired", "C1", [(130, 45), (180, 45), (180, 110), (130, 110)]),
]
for pid, owner, status, zone, ring in P:
    f = QgsFeature(mem.fields())
    f.setAttributes([pid, owner, status, zone])
    wkt = "POLYGON((" + ",".join(f"{X + x} {Y + y}" for x, y in [*ring, ring[0]]) + "))"
    f.setGeometry(QgsGeometry.fromWkt(wkt))
    pr.addFeature(f)
gpkg = os.path.join(out, "parcels.gpkg")
opts = QgsVectorFileWriter.SaveVectorOptions()
opts.driverName = "GPKG"
opts.layerName = "parcels"
err = QgsVectorFileWriter.writeAsVectorFormatV3(mem, gpkg, QgsCoordinateTransformContext(), opts)
print("write", err)
lyr = QgsVectorLayer(gpkg + "|layername=parcels", "parcels", "ogr")
assert lyr.isValid()
lyr.setSubsetString("\"status\" = 'active'")
colours = {"R1": "#9ccc65", "R2": "#4fc3f7", "C1": "#e0457b"}
cats = []
for zone, col in colours.items():
    sym = QgsFillSymbol.createSimple(
        {"color": col, "outline_color": "#263238", "outline_width": "0.4"}
    )
    cats.append(QgsRendererCategory(zone, sym, zone))
lyr.setRenderer(QgsCategorizedSymbolRenderer("zone", cats))
prj = QgsProject.instance()
prj.setCrs(QgsCoordinateReferenceSystem("EPSG:32633"))
prj.addMapLayer(lyr)
prj.writeEntryBool("Paths", "/Absolute", False)
print("save", prj.write(os.path.join(out, "site.qgs")))
app.exitQgis()
