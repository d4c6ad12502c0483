-- No query reads results by maze any more; the index only cost writes.
DROP INDEX finishes_maze_rank;
