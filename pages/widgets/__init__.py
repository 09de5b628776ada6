"""The lessons' widgets: seed, "Try this", points, players, canvas, downloads, presentation mode."""
