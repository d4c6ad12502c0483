-- The daily's grid and shape (contest.DailySettings.Grid and Shape): a
-- server's daily may be on a polar or hex grid, cut to a preset shape, or
-- follow the calendar of shapes ('calendar'); '' is no shape. The rows
-- before are the whole square grid, as their dailies always were.
ALTER TABLE daily_configs ADD COLUMN grid TEXT NOT NULL DEFAULT 'square' CHECK (grid IN ('square', 'polar', 'hex'));
ALTER TABLE daily_configs ADD COLUMN shape TEXT NOT NULL DEFAULT '' CHECK (length(shape) <= 16);
