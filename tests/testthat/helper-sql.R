# Databases for the SQL tests (test-tree-sql*.R, test-tidypredict.R).

# An SQLite database in memory holding the named data frames as tables.
sql_connection <- function(...) {
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  tables <- list(...)
  for (nm in names(tables)) DBI::dbWriteTable(con, nm, tables[[nm]])
  con
}

# A throwaway PostgreSQL server for the SQL tests: initdb in a fresh
# directory, the server listening on a unix socket in that directory only
# (no TCP port to collide with), trust authentication for its own superuser.
# As root the server runs as the `postgres` user (PostgreSQL refuses root),
# in a directory that user owns. One server per test file: start it with
# local_postgres(), which stops it and deletes the directory when the file
# ends; where it cannot start, the caller's tests skip with the reason.

postgres_bin <- function() {
  on_path <- Sys.which("initdb")
  dirs <- c(if (nzchar(on_path)) dirname(on_path), rev(sort(Sys.glob("/usr/lib/postgresql/*/bin"))))
  dirs <- dirs[file.exists(file.path(dirs, "initdb")) & file.exists(file.path(dirs, "pg_ctl"))]
  if (length(dirs)) dirs[1] else NULL
}

# Runs a server program as the server's user; TRUE when it succeeded.
postgres_run <- function(server, program, args) {
  cmd <- file.path(server$bin, program)
  out <- if (is.null(server$user)) {
    suppressWarnings(system2(cmd, args, stdout = TRUE, stderr = TRUE))
  } else {
    suppressWarnings(system2("runuser", c("-u", server$user, "--", cmd, args), stdout = TRUE, stderr = TRUE))
  }
  status <- attr(out, "status")
  if (!is.null(status) && status != 0) {
    attr(out, "failed") <- TRUE
  }
  out
}

# A connection to a fresh server (and its database "svforest"), or a string
# saying why there is none.
start_postgres <- function() {
  if (!requireNamespace("RPostgreSQL", quietly = TRUE)) return("RPostgreSQL is not installed")
  bin <- postgres_bin()
  if (is.null(bin)) return("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
  root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  user <- NULL
  if (root) {
    if (!nzchar(Sys.which("runuser")) || system2("id", "postgres", stdout = FALSE, stderr = FALSE) != 0) {
      return("running as root without a `postgres` user (and runuser) to run the server as")
    }
    user <- "postgres"
  }
  dir <- tempfile("svforest-pg-", tmpdir = "/tmp")
  dir.create(dir, mode = "0700")
  if (root) system2("chown", c("postgres", dir))
  server <- list(bin = bin, user = user, dir = dir, data = file.path(dir, "data"),
                 port = sample(20000:60000, 1), con = NULL)
  fail <- function(what, out) {
    stop_postgres(server)
    sprintf("PostgreSQL could not start (%s: %s)", what, paste(utils::tail(out, 3), collapse = " "))
  }
  out <- postgres_run(server, "initdb", c("-D", server$data, "-U", "svforest", "-A", "trust", "-E", "UTF8",
                                          "--no-sync", "--locale=C"))
  if (isTRUE(attr(out, "failed"))) return(fail("initdb", out))
  opts <- sprintf("-c listen_addresses='' -c unix_socket_directories='%s' -p %d -c fsync=off", server$dir,
                  server$port)
  out <- postgres_run(server, "pg_ctl", c("-D", server$data, "-l", file.path(server$dir, "log"), "-w", "-t", "30",
                                          "-o", shQuote(opts), "start"))
  if (isTRUE(attr(out, "failed"))) return(fail("pg_ctl start", out))
  server$started <- TRUE
  con <- tryCatch(DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = server$dir, port = server$port,
                                 user = "svforest", dbname = "postgres"),
                  error = function(e) conditionMessage(e))
  if (is.character(con)) return(fail("connect", con))
  # JIT would compile the forests' large expressions with LLVM first (see
  # ?svforest_sql): minutes for a large forest
  DBI::dbExecute(con, "SET jit = off")
  server$con <- con
  server
}

stop_postgres <- function(server) {
  if (!is.null(server$con)) try(DBI::dbDisconnect(server$con), silent = TRUE)
  if (isTRUE(server$started)) postgres_run(server, "pg_ctl", c("-D", server$data, "-m", "immediate", "-w", "stop"))
  unlink(server$dir, recursive = TRUE, force = TRUE)
  invisible()
}

# The connection to this test file's server (started on first use, stopped
# when the file ends), or a skip naming why there is none.
local_postgres <- function() {
  if (is.null(postgres_state$server)) {
    server <- start_postgres()
    postgres_state$server <- server
    if (is.list(server)) withr::defer({
      stop_postgres(server)
      postgres_state$server <- NULL
    }, testthat::teardown_env())
  }
  server <- postgres_state$server
  if (is.character(server)) testthat::skip(paste("no PostgreSQL server:", server))
  server$con
}
postgres_state <- new.env(parent = emptyenv())
