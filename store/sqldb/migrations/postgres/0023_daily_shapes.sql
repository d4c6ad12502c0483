-- As sqlite/0023_daily_shapes.sql: the daily's grid and shape.
ALTER TABLE daily_configs
	ADD COLUMN grid text COLLATE "C" NOT NULL DEFAULT 'square' CHECK (grid IN ('square', 'polar', 'hex')),
	ADD COLUMN shape text COLLATE "C" NOT NULL DEFAULT '' CHECK (length(shape) <= 16);
