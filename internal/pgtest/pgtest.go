package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Env names the server: a URL whose user may create databases, such as
// postgres://postgres@127.0.0.1:5432/postgres.
const Env = "MAZEBOT_TEST_POSTGRES"

// Database is the database the schemas are made in, created on first use.
// Its collation is ICU's en-US when the server has ICU, as a production
// database's would be linguistic: the stores must not depend on "C".
const Database = "mazebot_test"

// URL returns the server's URL, or skips the test when Env is unset
// (fails it under CI).
func URL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(Env)
	if u != "" {
		return u
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s is not set but CI is: .ci/run starts PostgreSQL and sets it; the PostgreSQL tests must run in CI", Env)
	}
	tb.Skipf("%s is not set: set it to a PostgreSQL server's URL (postgres://user@host:port/db, a user that may create databases) to run the PostgreSQL tests; .ci/run does", Env)
	return ""
}

var (
	dbOnce sync.Once
	dbURL  string
	dbErr  error
)

// Schema creates an empty schema in Database and returns a URL whose
// connections use it. It is dropped, with all in it, when the test ends;
// close the stores opened on it before then (a t.Cleanup registered after
// Schema runs before its own).
func Schema(tb testing.TB) string {
	tb.Helper()
	server := URL(tb)
	dbOnce.Do(func() { dbURL, dbErr = testDatabase(server) })
	if dbErr != nil {
		tb.Fatalf("test database: %v", dbErr)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	schema := "t_" + hex.EncodeToString(b[:])
	exec(tb, dbURL, `CREATE SCHEMA `+schema)
	tb.Cleanup(func() { exec(tb, dbURL, `DROP SCHEMA `+schema+` CASCADE`) })
	return WithParam(tb, dbURL, "search_path", schema)
}

// WithParam returns rawURL with a query parameter set.
func WithParam(tb testing.TB, rawURL, key, value string) string {
	tb.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		tb.Fatalf("%s: %v", Env, err) // not the URL itself: it may hold a password
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// testDatabase creates Database on the server if it is not there and
// returns its URL. Test binaries of several packages may race to create
// it; the loser finds it there.
func testDatabase(server string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	// A server built without ICU gets the default collation.
	for _, create := range []string{
		`CREATE DATABASE ` + Database + ` TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
		`CREATE DATABASE ` + Database,
	} {
		if _, err = conn.Exec(ctx, create); err == nil || isDuplicate(err) {
			err = nil
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("create database %s: %w", Database, err)
	}
	u, err := url.Parse(server)
	if err != nil {
		return "", errors.New("parse the URL") // not the URL: it may hold a password
	}
	u.Path = "/" + Database
	return u.String(), nil
}

// isDuplicate tells whether CREATE DATABASE failed because the database
// is there: made before (duplicate_database), or just now by another test
// binary (a unique violation in the catalog).
func isDuplicate(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && (e.Code == "42P04" || e.Code == "23505")
}

// exec runs one statement on its own connection.
func exec(tb testing.TB, url, sql string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		tb.Fatalf("%s: %v", sql, err)
	}
}
