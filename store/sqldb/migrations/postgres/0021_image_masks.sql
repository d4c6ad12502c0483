-- As sqlite/0021_image_masks.sql: the pictures made into masks, kept
-- under their hash so that their mazes can be drawn again.
CREATE TABLE image_masks (
	hash     bytea   PRIMARY KEY CHECK (length(hash) = 16),
	width    integer NOT NULL CHECK (width > 0),
	height   integer NOT NULL CHECK (height > 0),
	bits     bytea   NOT NULL,
	saved_at bigint  NOT NULL
);
