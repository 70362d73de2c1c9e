# The survival summary of svforest's rows of one commit against the peers'
# rows of other runs on the same splits (the peers' fits depend only on the
# split and the seed, so their scores repeat exactly; their times do not, so
# the time ratios printed here mix runs: read those from each run's own
# summary).
#
#   Rscript bench/survival_union.R --ours=6aac4a8 --peers=e523467,97ef20e,fa3f2eb
#
# --peers: commits of the table, later ones replacing a data set's peer rows
# of earlier ones.
local({
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(script)) dirname(normalizePath(script[1])) else "bench"
  for (helper in c("bench_common.R", "datasets.R", "harness_table.R", "harness_survival.R"))
    source(file.path(here, helper), local = globalenv())
})
args <- bench_args()
table <- read_harness_csv(harness_table_path())
table <- table[table$task == "survival", , drop = FALSE]
ours <- table[startsWith(table$commit, args$value("ours")) & table$method == "svforest", , drop = FALSE]
if (!nrow(ours)) stop("no svforest survival rows of commit ", args$value("ours"), call. = FALSE)
peers <- table[0, , drop = FALSE]
for (pick in args$value("peers")) {
  rows <- table[startsWith(table$commit, pick) & table$method %in% c("ranger", "aorsf", "grf", "coxph"), , drop = FALSE]
  peers <- rbind(peers[!peers$dataset %in% rows$dataset, , drop = FALSE], rows)
}
peers <- peers[peers$dataset %in% ours$dataset, , drop = FALSE]
say(sprintf("svforest: %s (%d rows); peers: %s\n", args$value("ours"), nrow(ours),
            paste(sprintf("%s (%d)", names(table(peers$commit)), table(peers$commit)), collapse = ", ")))
summarise_survival(rbind(ours, peers))
