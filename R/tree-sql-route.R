# svforest_sql()'s routing (R/tree-sql.R writes the design and plans the
# trees, R/tree-sql-outputs.R the leaves' outputs): each tree as CASEs
# nesting only in their THEN branches, cut into chunks SQLite's parser can
# read, each chunk resumed by a binary search on the node a row reached.

# A tree as CASEs that nest only in their THEN branches: a split's ELSE
# child continues the same CASE (`CASE WHEN a THEN x WHEN b THEN y ELSE z
# END`), and the child whose subtree nests less goes into THEN, so a tree
# of L leaves nests at most log2(L) CASEs however deep it is. Per node:
# `then` (the THEN child), `is_then` (a THEN child, or the root: it starts
# a CASE), `nest` (CASEs above it), `parent_nest` (its parent's; -1 at the
# root), `pre` (its place in the written text: itself, its THEN subtree,
# its ELSE subtree). Computed a level of depth at a time.
sql_tree_order <- function(shape) {
  n <- length(shape$leaf)
  splits <- which(!shape$leaf)
  by_depth <- split(splits, shape$depth[splits])
  nested <- integer(n)
  size <- rep(1L, n)
  then <- shape$left
  other <- shape$right
  for (i in rev(by_depth)) {
    swap <- nested[shape$right[i]] < nested[shape$left[i]]
    then[i[swap]] <- shape$right[i[swap]]
    other[i[swap]] <- shape$left[i[swap]]
    nested[i] <- pmax(nested[then[i]] + 1L, nested[other[i]])
    size[i] <- 1L + size[shape$left[i]] + size[shape$right[i]]
  }
  nest <- integer(n)
  parent_nest <- rep(-1L, n)
  pre <- rep(1L, n)
  is_then <- rep(TRUE, n)
  for (i in by_depth) {
    nest[then[i]] <- nest[i] + 1L
    nest[other[i]] <- nest[i]
    parent_nest[c(then[i], other[i])] <- nest[i]
    pre[then[i]] <- pre[i] + 1L
    pre[other[i]] <- pre[i] + 1L + size[then[i]]
    is_then[other[i]] <- FALSE
  }
  list(then_left = then == shape$left, is_then = is_then, nest = nest, parent_nest = parent_nest, pre = pre)
}

# A tree cut into chunks, each one expression nesting `levels` CASEs from
# `start` (the nest of its first nodes) on: chunk k starts at the nodes a
# row may have reached (`from`: the THEN children at its start and the
# leaves above; NULL: the root), found by a binary search on the node
# number, so that both nest at most `nesting` CASEs.
sql_tree_chunks <- function(plan, nesting) {
  deepest <- max(plan$nest)
  start <- 0L
  chunks <- list()
  repeat {
    from <- if (start > 0L) which(plan$nest == start & plan$parent_nest < start | plan$leaf & plan$nest < start)
    levels <- max(3L, nesting - if (is.null(from)) 0L else ceiling(log2(length(from))))
    chunks[[length(chunks) + 1L]] <- list(from = from, start = start, levels = levels)
    start <- start + levels
    if (start >= deepest) return(chunks)
  }
}

# Chunk `chunk` of tree `plan` as one expression: the nodes it starts
# from, found by a binary search on the node column `node`, each followed
# down the chunk's CASEs; leaves give at_leaf(nodes), the nodes where the
# chunk ends at_limit(nodes). Written as words in the text's order, pasted
# once (growing strings node by node copies the text once per level).
sql_chunk <- function(plan, node, chunk, at_leaf, at_limit) {
  top <- chunk$start + chunk$levels
  is_from <- seq_along(plan$leaf) %in% (if (is.null(chunk$from)) 1L else chunk$from)
  keep <- which(is_from | plan$nest >= chunk$start & plan$parent_nest < top)
  keep <- keep[order(plan$pre[keep])]
  leaf <- plan$leaf[keep]
  limit <- !leaf & plan$nest[keep] == top
  test <- !leaf & !limit
  opens <- plan$is_then[keep] | is_from[keep]
  words <- character(length(keep))
  words[test] <- paste0(c("WHEN ", "CASE WHEN ")[opens[test] + 1L], plan$cond[keep[test]], " THEN")
  words[leaf] <- at_leaf(keep[leaf])
  closes <- leaf & !opens
  words[closes] <- paste("ELSE", words[closes], "END")
  words[limit] <- at_limit(keep[limit])
  starts <- keep[is_from[keep]]
  exprs <- vapply(split(words, cumsum(is_from[keep])), paste, "", collapse = " ", USE.NAMES = FALSE)
  if (is.null(chunk$from)) return(exprs)
  sql_search(node, sort(starts), exprs[order(starts)])
}

# A binary search on the integer column `node` for the sorted `keys`:
# nested CASEs giving `values[k]` where node is keys[k]. Written a level
# at a time: a search of m keys is 4m - 3 words.
sql_search <- function(node, keys, values) {
  words <- character(4L * length(keys) - 3L)
  lo <- 1L
  m <- length(keys)
  at <- 1L
  while (length(lo)) {
    one <- m == 1L
    words[at[one]] <- values[lo[one]]
    lo <- lo[!one]
    m <- m[!one]
    at <- at[!one]
    half <- m %/% 2L
    words[at] <- sprintf("CASE WHEN %s <= %d THEN", node, keys[lo + half - 1L])
    other <- at + 1L + (4L * half - 3L)
    words[other] <- "ELSE"
    words[at + 4L * m - 4L] <- "END"
    lo <- c(lo, lo + half)
    m <- c(half, m - half)
    at <- c(at + 1L, other + 1L)
  }
  paste(words, collapse = " ")
}

# Routing steps: step k holds n<t>, the node (from 1) each row has reached
# in tree t after k chunks (`to_leaf`: down to its leaf; else the last
# chunk is left to the outputs). Returns the steps, the node column of each
# tree (NULL: its outputs route from the root) and the last step's name.
# `step` writes a step; `prefix` begins the steps' names (sql_step_prefix());
# the first step reads `from` and is numbered `first`.
sql_route_steps <- function(plans, carry, step, to_leaf, prefix = "", from = paste0(prefix, "design"), first = 1L) {
  # the chunks routed here: every one when the outputs search the leaves,
  # else those before the last
  chunks <- vapply(plans, function(p) length(p$chunks) - !to_leaf, 0L)
  node <- rep(list(NULL), length(plans))
  steps <- character()
  id <- function(i) as.character(i)
  for (k in seq_len(max(0L, chunks))) {
    cols <- character()
    for (t in seq_along(plans)) {
      if (chunks[t] >= k) {
        e <- sql_chunk(plans[[t]], node[[t]], plans[[t]]$chunks[[k]], id, id)
        cols <- c(cols, sprintf("%s AS n%d", e, t))
        node[[t]] <- sprintf("n%d", t)
      } else if (!is.null(node[[t]])) {
        cols <- c(cols, node[[t]])
      }
    }
    name <- sprintf("%sroute%d", prefix, first + k - 1L)
    steps <- c(steps, step(name, c(carry, cols), from))
    from <- name
  }
  list(steps = steps, node = node, from = from)
}

# Trees per block of the sums: SQLite nests a chain of additions one level
# per term (at most 1000 levels) and PostgreSQL takes at most 1664 columns
# in a step, so a larger forest is summed a block at a time.
sql_block_trees <- 400L

# The routing steps and the sums over the trees of their outputs, a block of
# trees at a time: each block's step adds its trees to the partial sums of
# the blocks before, left to right (the additions of predict(), in its
# order). Returns the steps, the last one's name and the sums (named) to
# compute from it.
sql_sum_steps <- function(object, plans, cols, step, to_leaf, prefix, block = sql_block_trees) {
  blocks <- split(seq_along(plans), (seq_along(plans) - 1L) %/% block)
  steps <- character()
  from <- paste0(prefix, "design")
  partial <- character()
  routes <- 0L
  for (b in seq_along(blocks)) {
    part <- plans[blocks[[b]]]
    route <- sql_route_steps(part, c(cols, "ok", partial), step, to_leaf, prefix, from, routes + 1L)
    steps <- c(steps, route$steps)
    routes <- routes + length(route$steps)
    sums <- sql_sums(object, part, route$node, to_leaf)
    if (length(partial)) sums <- stats::setNames(paste(partial, sums, sep = " + "), names(sums))
    if (b == length(blocks)) return(list(steps = steps, from = route$from, sums = sums))
    partial <- paste0("p_", names(sums))
    from <- sprintf("%ssummed%d", prefix, b)
    steps <- c(steps, step(from, c(cols, "ok", sprintf("%s AS %s", sums, partial)), route$from))
  }
}
