# Out-of-bag checks shared by the contract tests.

# The out-of-bag trees of every training row of a fit with `args` (a list of
# svforest() arguments with x, y, ntree and seed): tree t's fit alone
# (ntree = 1, first_tree = t) has out-of-bag rows exactly where that tree
# left the row out. Returns an n x ntree logical matrix.
oob_membership <- function(args) {
  sapply(seq_len(args$ntree) - 1L, function(t) {
    one <- do.call(svforest, utils::modifyList(args, list(ntree = 1L, first_tree = t, num_threads = 1L)))
    one$oob_count > 0
  })
}

# What predict() says for each training row from its out-of-bag trees alone
# (NA for a row without any): the forest `fit` cut down to those trees.
# Rows with the same trees are predicted together.
predict_from_oob_trees <- function(fit, x, member) {
  type <- if (identical(fit$type, "regression")) "response" else "class"
  out <- rep(NA, nrow(x))
  key <- apply(member, 1, function(m) paste(which(m), collapse = ","))
  for (k in unique(key[nzchar(key)])) {
    rows <- which(key == k)
    sub <- fit
    sub$forest$trees <- fit$forest$trees[member[rows[1], ]]
    sub$ntree <- length(sub$forest$trees)
    p <- predict(sub, x[rows, , drop = FALSE], type = type, num_threads = 1)
    out[rows] <- if (type == "class") as.character(p) else p
  }
  if (type == "class") factor(out, levels = fit$levels) else as.double(out)
}
