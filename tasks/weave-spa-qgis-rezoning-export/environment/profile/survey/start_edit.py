# Run by `qgis --code` at start: the planner's unsaved attribute edit and the initial view.
from qgis.core import QgsProject
from qgis.utils import iface

layer = QgsProject.instance().mapLayersByName("parcels")[0]
layer.startEditing()
p104 = next(f.id() for f in layer.getFeatures() if f["parcel_id"] == "P-104")
layer.changeAttributeValue(p104, layer.fields().indexOf("zone"), "C1")
iface.setActiveLayer(layer)
iface.mapCanvas().setExtent(layer.extent().buffered(25))
iface.mapCanvas().refresh()
