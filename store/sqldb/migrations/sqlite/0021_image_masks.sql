-- The pictures /maze image: made into masks (mazecore.Image), kept under
-- their hash, which a v3 maze ID names, so that the maze can be drawn
-- again: width and height in pixels, bits a pixel each, row-major,
-- saved_at when first kept.
CREATE TABLE image_masks (
	hash     BLOB    PRIMARY KEY CHECK (length(hash) = 16),
	width    INTEGER NOT NULL CHECK (width > 0),
	height   INTEGER NOT NULL CHECK (height > 0),
	bits     BLOB    NOT NULL,
	saved_at INTEGER NOT NULL
) STRICT;
