-- Nothing ever read a post's author.
ALTER TABLE posts DROP COLUMN author_id;
