# The "Done when" figures of issue #41 (look inside the forest), on the data
# of tests/testthat/helper-inside.R: the table walker against predict() on
# 1,000 new rows, the weights of a predictor multiplied by 1000, the labels
# plot(tree =) draws, the SQL in SQLite (100-tree default classification and
# default regression, generation time) and the per-node out-of-bag counts.
#
# Usage (from the repository root): Rscript bench/inside_check.R
# Writes bench/results/inside_check.txt.
suppressPackageStartupMessages(library(svforest))
# (the new rows have missing values on purpose: predict() says so each time)
predict <- function(...) suppressWarnings(stats::predict(...))
source("tests/testthat/helper-inside.R")
out <- character()
say <- function(...) { line <- sprintf(...); out <<- c(out, line); cat(line, "\n") }
max_diff <- function(a, b) max(abs(unname(as.matrix(a)) - unname(as.matrix(b))))

# 1. the walker
d <- inside_class_data(400)
new <- inside_class_data(1000, seed = 11)
fit <- svforest(y ~ ., data = d, ntree = 100, seed = 3, num_threads = 1)
w <- walk_tables(fit, new)
say("walker, default classes (factors, missing values; %d trees): max |prob diff| %.3g, classes identical %s",
    fit$ntree, max_diff(w$prob, predict(fit, new, type = "prob")), identical(w$class, predict(fit, new)))
rsvt <- svforest(y ~ x1 + x2 + x3 + f, data = d, method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
w <- walk_tables(rsvt, new)
say("walker, rsvt classes (linear leaves): max |prob diff| %.3g, classes identical %s",
    max_diff(w$prob, predict(rsvt, new, type = "prob")), identical(w$class, predict(rsvt, new)))
dr <- inside_regression_data(300)
newr <- inside_regression_data(1000, seed = 9)
reg <- svforest(y ~ ., data = dr, seed = 1, num_threads = 1)
say("walker, default regression (%d trees): max |mean diff| %.3g", reg$ntree,
    max_diff(walk_tables(reg, newr)$response, predict(reg, newr)))
lin <- svforest(y ~ ., data = dr, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
say("walker, rsvt regression: max |mean diff| %.3g", max_diff(walk_tables(lin, newr)$response, predict(lin, newr)))

# 2. the user's scale: x1 multiplied by 1000
dn <- stats::na.omit(d)
big <- dn
big$x1 <- big$x1 * 1000
ta <- svforest_tree(svforest(y ~ x1 + x2 + x3, data = dn, ntree = 2, seed = 2, num_threads = 1), 1)
tb <- svforest_tree(svforest(y ~ x1 + x2 + x3, data = big, ntree = 2, seed = 2, num_threads = 1), 1)
h <- which(ta$kind == "hyperplane")[1]
say("x1 * 1000: hyperplane weight of x1 %.6g -> %.6g (ratio %.6g), of x2 %.6g -> %.6g", ta$terms[[h]][["x1"]],
    tb$terms[[h]][["x1"]], ta$terms[[h]][["x1"]] / tb$terms[[h]][["x1"]], ta$terms[[h]][["x2"]], tb$terms[[h]][["x2"]])

# 3. the picture
small <- svforest(y ~ ., data = inside_class_data(300), ntree = 3, seed = 2, num_threads = 1)
png_file <- tempfile(fileext = ".png")
grDevices::png(png_file, width = 1400, height = 800)
drawn <- plot(small, tree = 2, max_depth = 3)
grDevices::dev.off()
tab <- svforest_tree(small, 2)
splits <- drawn$kind != "leaf" & drawn$y < 3
say("plot(tree = 2): PNG %d bytes, %d split labels drawn, all equal to the table's: %s", file.size(png_file),
    sum(splits), identical(drawn$label[splits], tab$label[drawn$node[splits]]))

# 4. SQL in SQLite
con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
DBI::dbWriteTable(con, "new", new)
DBI::dbWriteTable(con, "newr", newr)
secs <- system.time(sql <- svforest_sql(fit, "new"))[["elapsed"]]
res <- DBI::dbGetQuery(con, sql)
say("SQL, %d-tree default classification: generated in %.2f s (%.0f kB), max |prob diff| %.3g, classes identical %s",
    fit$ntree, secs, nchar(sql) / 1024, max_diff(res[, 1:3], predict(fit, new, type = "prob")),
    identical(res$.pred_class, as.character(predict(fit, new))))
secs <- system.time(sql <- svforest_sql(reg, "newr"))[["elapsed"]]
res <- DBI::dbGetQuery(con, sql)
say("SQL, %d-tree default regression: generated in %.2f s, max |mean diff| %.3g", reg$ntree, secs,
    max_diff(res$.pred, predict(reg, newr)))
DBI::dbDisconnect(con)

# 5. per-node out-of-bag counts
tabs <- lapply(seq_len(fit$ntree), function(t) svforest_tree(fit, t))
sums_ok <- all(vapply(tabs, function(tb) {
  s <- tb$kind != "leaf"
  identical(tb$n_oob[s], tb$n_oob[tb$left[s]] + tb$n_oob[tb$right[s]])
}, NA))
roots <- vapply(tabs, function(tb) tb$n_oob[1], 0L)
say("n_oob, default classes: root counts %d-%d of %d rows (mean %.1f), every split's count the sum of its children's: %s",
    min(roots), max(roots), nrow(d), mean(roots), sums_ok)

# 6. bad arguments
error_of <- function(expr) tryCatch({ expr; "no error" }, error = conditionMessage)
tf <- svforest(Species ~ ., data = iris, method = "transform", ntree = 2, seed = 1, num_threads = 1)
damaged <- small
damaged$forest$trees[[2]]$split_kind <- as.raw(c(2, 9))
for (case in list(list("svforest_tree(fit, 101)", error_of(svforest_tree(fit, 101))),
                  list("tidy(fit, tree = 0)", error_of(tidy(fit, tree = 0))),
                  list("plot(small, tree = 4)", error_of(plot(small, tree = 4))),
                  list("svforest_sql(<transform>)", error_of(svforest_sql(tf, "t"))),
                  list("svforest_tree(<damaged>, 2)", error_of(svforest_tree(damaged, 2))),
                  list("svforest_sql(<damaged>)", error_of(svforest_sql(damaged, "t")))))
  say("error, %s: %s", case[[1]], case[[2]])
writeLines(out, "bench/results/inside_check.txt")
