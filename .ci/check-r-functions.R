# Lists R functions in R/ over 80 lines, counted from the `function` keyword
# to the function's closing brace (parse data, so strings and comments that
# mention braces do not count). Nested functions and the `\(x)` shorthand
# are checked too.
# Exit status 1 when any function is over the limit.
# Usage: Rscript .ci/check-r-functions.R [R]
limit <- 80L

# The name a function is assigned to (`name <- function`), else "<anonymous>".
function_name <- function(pd, fn_expr) {
  parent <- pd$parent[pd$id == fn_expr]
  kids <- pd[pd$parent == parent, ]
  kids <- kids[order(kids$line1, kids$col1), ]
  assign_at <- which(kids$token %in% c("LEFT_ASSIGN", "EQ_ASSIGN"))
  if (length(assign_at) != 1L || assign_at < 2L) return("<anonymous>")
  target <- kids$id[assign_at - 1L]
  sym <- pd$text[pd$parent == target & pd$token == "SYMBOL"]
  if (length(sym) == 1L) sym else "<anonymous>"
}

# One row per function of `path`: its first line, length and name.
file_functions <- function(path) {
  pd <- utils::getParseData(parse(path, keep.source = TRUE))
  keyword <- pd[pd$token %in% c("FUNCTION", "'\\\\'"), ]  # `function` and the `\(x)` shorthand
  if (!nrow(keyword)) return(data.frame(file = character(), line = integer(), length = integer(), name = character()))
  fn_expr <- keyword$parent
  line1 <- pd$line1[match(fn_expr, pd$id)]
  line2 <- pd$line2[match(fn_expr, pd$id)]
  data.frame(file = path, line = line1, length = line2 - line1 + 1L,
             name = vapply(fn_expr, function_name, "", pd = pd))
}

main <- function(dir) {
  files <- sort(list.files(dir, pattern = "[.][Rr]$", full.names = TRUE))
  if (!length(files)) stop("no R files in ", dir, call. = FALSE)
  all <- do.call(rbind, lapply(files, file_functions))
  over <- all[all$length > limit, ]
  for (i in seq_len(nrow(over))) {
    cat(sprintf("%s:%d: function %s of %d lines (limit %d)\n", over$file[i], over$line[i], over$name[i],
                over$length[i], limit))
  }
  cat(sprintf("%d of %d functions over %d lines\n", nrow(over), nrow(all), limit))
  nrow(over) == 0L
}

args <- commandArgs(trailingOnly = TRUE)
if (!main(if (length(args)) args[1] else "R")) quit(status = 1)
