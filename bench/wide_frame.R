# Wide data frames: the cost of the design for a data frame of p numeric
# columns against the same data as a matrix (the plain path of R/design.R).
# Fits svforest(matrix), svforest(data frame) and svforest(y ~ ., data) with
# the default method, 20 rows, 5 repetitions each in one process; prints the
# median elapsed and CPU times, their ratios to the matrix, and the time to
# predict the 20 rows.
# Run: R_LIBS=<lib> Rscript bench/wide_frame.R [p]   (default p = 5000)
args <- commandArgs(trailingOnly = TRUE)
Sys.setenv(P = if (length(args)) args[1] else "5000")
suppressPackageStartupMessages(library(svforest))
p <- as.integer(Sys.getenv("P", "5000"))
set.seed(1); x <- as.data.frame(matrix(rnorm(20 * p), 20)); y <- factor(rep(c("a","b"), 10))
m <- as.matrix(x); d <- cbind(y = y, x)
cpu <- function(e) { t <- system.time(e); c(elapsed = t[[3]], cpu = t[[1]] + t[[2]]) }
reps <- 5
r <- replicate(reps, rbind(matrix = cpu(svforest(m, y, seed = 1, num_threads = 1)),
                           df = cpu(svforest(x, y, seed = 1, num_threads = 1)),
                           formula = cpu(svforest(y ~ ., data = d, seed = 1, num_threads = 1))))
med <- apply(r, c(1, 2), median)
print(med)
cat(sprintf("p=%d median ratios (elapsed): df/matrix %.2f formula/matrix %.2f; (cpu) df %.2f formula %.2f\n", p,
            med["df", "elapsed"] / med["matrix", "elapsed"], med["formula", "elapsed"] / med["matrix", "elapsed"],
            med["df", "cpu"] / med["matrix", "cpu"], med["formula", "cpu"] / med["matrix", "cpu"]))
fd <- svforest(x, y, seed = 1, num_threads = 1); ff <- svforest(y ~ ., data = d, seed = 1, num_threads = 1)
pr <- replicate(reps, c(df = cpu(predict(fd, x))[[1]], formula = cpu(predict(ff, d))[[1]]))
cat(sprintf("predict 20 rows, median elapsed: df %.3f s, formula %.3f s\n", median(pr["df", ]), median(pr["formula", ])))
