"""Board geometry: a tiny pure hex core, polygon cells, adjacency, connectivity and region splits."""
