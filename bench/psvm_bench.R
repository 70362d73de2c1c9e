# PSVM trees against ranger (500 trees), RSVT and a one-vs-one linear SVM
# (e1071::svm, kernel = "linear") on the PSVM paper's kind of data, all in one
# process. Also times 100 PSVM trees against 500 ranger trees on letter.
#   Rscript bench/psvm_bench.R [data_dir]
suppressPackageStartupMessages({ library(svforest); library(mlbench); library(ranger) })
args <- commandArgs(trailingOnly = TRUE)
data_dir <- if (length(args)) args[1] else "../shared/data"
threads <- 2

split_strat <- function(y, frac = 2 / 3, seed = 1) {
  set.seed(seed)
  sort(unlist(lapply(split(seq_along(y), y), function(i) i[sample.int(length(i), round(frac * length(i)))])))
}
timed <- function(expr) { t <- system.time(v <- expr)[["elapsed"]]; list(value = v, secs = t) }

datasets <- list()
data(Vowel); v <- Vowel; v$V1 <- NULL
datasets$vowel <- list(x = as.matrix(v[, -ncol(v)]), y = v$Class)
data(Vehicle); datasets$vehicle <- list(x = as.matrix(Vehicle[, -19]), y = Vehicle$Class)
seg <- file.path(data_dir, "segment", "segment.dat")
if (file.exists(seg)) {
  d <- read.delim(seg, header = FALSE)
  datasets$segment <- list(x = as.matrix(d[, 1:19]), y = factor(d[, 20]))
}
spam_file <- list.files(file.path(data_dir, "sklearn"), pattern = "spam", full.names = TRUE)
if (length(spam_file)) cat("note: spam file found but not parsed:", spam_file, "\n")
iso <- file.path(data_dir, "isolet", c("isolet_train.csv.gz", "isolet_test.csv.gz"))
if (all(file.exists(iso)) && !"--no-isolet" %in% args) {
  # the standard split (isolet1-4 / isolet5) is used as given below via `fixed_split`
  a <- read.csv(iso[1], header = FALSE); b <- read.csv(iso[2], header = FALSE)
  datasets$isolet <- list(x = as.matrix(rbind(a, b)[, 1:617]), y = factor(c(a[, 618], b[, 618])),
                          fixed_split = seq_len(nrow(a)))
}
data(Sonar); datasets$sonar <- list(x = as.matrix(Sonar[, 1:60]), y = Sonar$Class)
data(Satellite); datasets$satellite <- list(x = as.matrix(Satellite[, 1:36]), y = Satellite$classes)

rows <- list()
for (name in names(datasets)) {
  d <- datasets[[name]]
  colnames(d$x) <- paste0("v", seq_len(ncol(d$x)))
  tr <- if (is.null(d$fixed_split)) split_strat(d$y) else d$fixed_split
  xtr <- d$x[tr, ]; ytr <- droplevels(d$y[tr]); xte <- d$x[-tr, ]; yte <- d$y[-tr]
  acc <- function(p) mean(as.character(p) == as.character(yte))
  ps <- timed(svforest(xtr, ytr, method = "psvm", seed = 1, num_threads = threads))
  rs <- timed(svforest(xtr, ytr, method = "rsvt", seed = 1, num_threads = threads))
  rf <- timed(ranger(x = xtr, y = ytr, num.threads = threads, seed = 1))
  lin <- timed(e1071::svm(xtr, ytr, kernel = "linear", scale = TRUE))
  row <- data.frame(
    data = name, n_train = nrow(xtr), p = ncol(xtr), classes = nlevels(ytr),
    psvm = acc(predict(ps$value, xte)), rsvt = acc(predict(rs$value, xte)),
    ranger = acc(predict(rf$value, xte)$predictions), linear_ovo = acc(predict(lin$value, xte)),
    psvm_fit_s = ps$secs, rsvt_fit_s = rs$secs, ranger_fit_s = rf$secs)
  row$psvm_minus_ranger_pts <- 100 * (row$psvm - row$ranger)
  row$psvm_minus_linear_pts <- 100 * (row$psvm - row$linear_ovo)
  print(row, digits = 3, row.names = FALSE)
  rows[[name]] <- row
}
cat("\n== accuracy (held-out third, stratified) ==\n")
print(do.call(rbind, rows), digits = 3, row.names = FALSE)

cat("\n== letter, 20,000 x 16: 100 PSVM trees vs 500 ranger trees (fit seconds) ==\n")
data(LetterRecognition)
lx <- as.matrix(LetterRecognition[, -1]); ly <- LetterRecognition$lettr
ps <- timed(svforest(lx[1:16000, ], ly[1:16000], method = "psvm", ntree = 100, seed = 1, num_threads = threads))
rf <- timed(ranger(x = lx[1:16000, ], y = ly[1:16000], num.trees = 500, num.threads = threads, seed = 1))
full_ps <- timed(svforest(lx, ly, method = "psvm", ntree = 100, seed = 1, num_threads = threads))
full_rf <- timed(ranger(x = lx, y = ly, num.trees = 500, num.threads = threads, seed = 1))
cat(sprintf("test accuracy (16k/4k): psvm %.4f, ranger %.4f\n",
            mean(predict(ps$value, lx[16001:20000, ]) == ly[16001:20000]),
            mean(predict(rf$value, lx[16001:20000, ])$predictions == ly[16001:20000])))
cat(sprintf("fit on all 20,000 rows: psvm %.2f s, ranger %.2f s, ratio psvm/ranger %.2f\n",
            full_ps$secs, full_rf$secs, full_ps$secs / full_rf$secs))
