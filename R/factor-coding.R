# Factor coding `factor_coding`: how the levels of a factor (or character)
# predictor of a data frame reach the trees (the pre-fit step of
# R/step-factor-coding.R).
#
# "indicator" (the paper presets'): one 0/1 column per level, as
# frame_design() builds them.
#
# "order" (the default for classes): each factor that is a term of its own
# reaches the engine as one column of level codes 1..L, and each tree
# replaces the codes by values it learns from its own in-bag rows
# (src/core/forest/LevelValues.h): the level's share of the second class
# with two classes, its class shares projected on their first principal
# component with more (Coppersmith, Hong and Hosking 1999), its mean outcome
# for a number; shrunk toward the tree's overall value, and levels with
# fewer than 5 in-bag rows at that overall value. The tree keeps the values,
# so prediction reads new rows the same way; an out-of-bag row's label
# never shaped the values its tree reads, so out-of-bag error stays honest
# with a factor of many rare levels (an ID column). With two classes or a
# number an axis cut on the coded column is the best split of the levels
# into two groups (Breiman et al. 1984, 9.4), and `mtry` draws a factor
# once rather than once per level. Levels without training rows (kept
# levels of the factor) and codes outside 1..L read as the overall value.
# Parts that read scaled rows (SVM leaves, the RSVF splitter) do not read
# coded columns (their scale factor is 0); axis cuts and the hybrid's
# hyperplanes do.
#
# "auto" (the default for numbers): "order" for factors of more than
# `factor_many_levels` levels, indicators for the others (a few levels are
# read as well or better through their own columns).
#
# Models of versions before the per-tree coding stored one order for all
# trees as the factor's contrast matrix (one column of ranks) and trees
# without level values: model.matrix() still builds that column for them.
#
# Design columns are found by their origin (spec$origin, R/design.R), never
# by pasted names.

factor_coding_choices <- c("indicator", "order", "auto")

# "auto": factors of more levels than this are coded per tree.
factor_many_levels <- 10L

# The level count above which a fit's design holds a factor as level codes
# (frame_design()'s `level_codes`): 1 for "order", factor_many_levels for
# "auto", NULL for "indicator". The given `factor_coding`, else the method's
# default for the outcome `y`; an invalid method or value is reported later,
# by the checks of the parameters.
design_level_codes <- function(method, user, y) {
  coding <- user[["factor_coding"]]
  if (is.null(coding)) {
    outcome <- outcome_family(y)$name  # R/family.R
    preset <- tryCatch(outcome_preset(svf_method(if (is.null(method)) default_method(outcome) else method), outcome),
                       error = function(e) NULL)
    if (is.null(preset)) return(NULL)
    coding <- preset_default(preset, "factor_coding", "indicator")
  }
  if (identical(coding, "order")) 1L else if (identical(coding, "auto")) factor_many_levels
}

# The design columns of level codes (positions from 1) and their numbers of
# levels: the factors whose contrast is code_contrasts() (R/design.R).
level_code_columns <- function(spec, coding) {
  none <- list(cols = integer(), levels = integer())
  if (!identical(spec$type, "frame")) return(none)
  coded <- names(spec$contrasts)[vapply(spec$contrasts, is_code_contrast, TRUE)]
  if (!length(coded)) return(none)
  if (!coding %in% c("order", "auto")) {
    stop("Internal error: the design holds level codes but `factor_coding` is \"indicator\".", call. = FALSE)
  }
  cols <- match(match(coded, spec$predictors), spec$origin)
  list(cols = cols, levels = lengths(spec$xlevels[coded]))
}

is_code_contrast <- function(m) ncol(m) == 1L && identical(unname(m[, 1]), as.double(seq_len(nrow(m))))

# Positions (in the frame's columns) of the variables that enter one term
# only, the variable itself; `term_var` from term_variables().
alone_variables <- function(terms, term_var) {
  factors <- attr(terms, "factors")
  if (!length(factors)) return(integer())
  in_terms <- rowSums(factors > 0)
  which(in_terms == 1 & seq_len(nrow(factors)) %in% term_var)
}
