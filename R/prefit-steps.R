#' @include registry.R
NULL

# Pre-fit steps: what a fit learns from its training rows before the engine
# runs (weights, missing values, factor coding, rank scaling), kept in the
# model and replayed on every later set of rows. Each step is a list in its
# own file (R/step-*.R); fit_forest() (R/svforest.R), the design of new rows
# (R/design.R), check_model() (R/model-check.R) and combine() (R/combine.R)
# only iterate over svf_prefit_steps(): a new step is its own file plus one
# line there, or a register_prefit_step() call.
#
# A step is list(
#   name,    the step's name
#   phase,   "rows": it decides which training rows the fit uses and what
#            each weighs (run before the post-fit stages hold rows out and
#            before the parameters, some of which depend on the row count);
#            "design": it learns from the design matrix of the rows the
#            trees see (run once the parameters are resolved, before they
#            are finished for the number of columns)
#   args,    the svforest() arguments it takes (exact names), removed from
#            the parameters and given to fit() as ctx$step_args
#   fit,     function(ctx): the fit's context with the step applied; it may
#            change the values of the design matrix ctx$x, not its columns
#            (the design's feature names describe them), or its rows (a
#            rows step, with ctx$y and ctx$n), add its state to the design
#            spec ctx$design$spec, or set what the engine call reads
#            (ctx$factors, ctx$weights, ctx$params); NULL: none (a step
#            that acts on the input only)
#   state,   function(model): the step's stored state (default: the design
#            element named as the step)
#   replay,  function(design, x): the design matrix `x` of other rows
#            (predict(), validation rows, the stages' held-out rows) changed
#            as fit() changed the training rows', from the state in `design`;
#            NULL: the step does not change the design matrix of new rows
#   check,   function(state, design, fail): calls fail(what) when the stored
#            state is damaged (check_model())
#   combine, function(states, differ): calls differ(what) unless forests
#            with these states can be combined (combine() keeps the first
#            part's state)
#   input_fit, optional function(kind, data, args, rows, build): for a step
#            that acts on the input before it becomes a design matrix (as
#            missing values do: a factor's missing level must exist before
#            the factor becomes columns). Returns the design list(spec, x),
#            made by build(data as the step changed it) and completed by the
#            step (columns appended, its state added to spec). `kind`:
#            "frame" (data: the model frame), "plain" (list(mf, x, spec): a
#            frame of numbers, its matrix and the design so far) or "matrix"
#            (a matrix or dgCMatrix); `args`: the step's svforest()
#            arguments; `rows`: the rows the fit uses (NULL: all)
#   input_replay, optional function(kind, design, data, build): the design
#            matrix of new rows, likewise from build(data as changed)
#   describe, optional function(map, design): the design map of
#            svforest_design() (R/tree-table.R) with what the step does to
#            the design's columns (their types, fills, maps)
#   sql,     function(design, state): how svforest_sql() (R/tree-sql.R)
#            writes the step: the SQL design (sql_design()) with the step's
#            part written in, from its `state`; NULL: the step cannot be
#            written as SQL, and svforest_sql() refuses a model holding its
#            state, naming the step
#   sql_tree, optional function(object, tree, cols): the SQL of the design
#            columns `cols` as tree `tree` reads them (a per-tree map)
# )

# Steps added after the package's own (by a test, or another package), in
# the order added; a step of the same name replaces the earlier one.
prefit_step_registry <- new.env(parent = emptyenv())
prefit_step_registry$added <- list()

# The package's steps in the order they run, then the added ones.
svf_prefit_steps <- function() {
  c(list(
    weights_step,        # R/step-weights.R
    subjects_step,       # R/step-subjects.R
    missing_values_step, # R/step-missing.R
    factor_coding_step,  # R/step-factor-coding.R
    rank_scaling_step    # R/step-rank-scaling.R
  ), unname(prefit_step_registry$added))
}

register_prefit_step <- function(name, fit, replay = NULL, check = NULL, combine = NULL, ...) {
  prefit_step_registry$added[[name]] <- new_prefit_step(name, fit, replay, check, combine, ...)
  invisible(name)
}

# Removes an added step (e.g. at the end of a test); models that hold its
# state keep it, neither replayed nor checked.
remove_prefit_step <- function(name) {
  prefit_step_registry$added[[name]] <- NULL
  invisible(name)
}

new_prefit_step <- function(name, fit, replay = NULL, check = NULL, combine = NULL, phase = "design",
                            args = character(), state = NULL, input_fit = NULL, input_replay = NULL,
                            describe = NULL, sql = NULL, sql_tree = NULL) {
  if (!phase %in% c("rows", "design")) stop("Internal error: a pre-fit step's phase is \"rows\" or \"design\".")
  if (is.null(state)) state <- function(model) model$design[[name]]
  list(name = name, phase = phase, args = args, fit = fit, state = state, replay = replay, check = check,
       combine = combine, input_fit = input_fit, input_replay = input_replay, describe = describe, sql = sql,
       sql_tree = sql_tree)
}

# What the design of the training rows gives the steps' input_fit(): their
# arguments among the user's and the rows the fit uses (those of positive
# case weight, na_rows(); NULL: all).
design_inputs <- function(user = list(), n = 0L) {
  args <- unlist(lapply(Filter(function(s) !is.null(s$input_fit), svf_prefit_steps()), `[[`, "args"))
  list(args = user[names(user) %in% args], rows = na_rows(user, n))
}

# The design list(spec, x) of the training input `data` of `kind`: build()
# wrapped in the steps' input_fit(), the first registered outermost.
input_steps_fit <- function(kind, data, inputs, build) {
  steps <- Filter(function(s) !is.null(s$input_fit), svf_prefit_steps())
  wrapped <- Reduce(function(inner, step) {
    force(inner)
    force(step)
    function(d) step$input_fit(kind, d, inputs$args, inputs$rows, inner)
  }, rev(steps), build)
  wrapped(data)
}

# The design matrix of new rows `data` of `kind` (R/design.R), likewise.
input_steps_replay <- function(kind, design, data, build) {
  steps <- Filter(function(s) !is.null(s$input_replay), svf_prefit_steps())
  wrapped <- Reduce(function(inner, step) {
    force(inner)
    force(step)
    function(d) step$input_replay(kind, design, d, inner)
  }, rev(steps), build)
  wrapped(data)
}

# Names of a list, "" for each unnamed element.
element_names <- function(x) if (is.null(names(x))) rep("", length(x)) else names(x)

# The steps' arguments taken out of the user's ones (before the parameters
# are resolved from what is left).
take_step_args <- function(ctx) {
  args <- unlist(lapply(svf_prefit_steps(), `[[`, "args"))
  taken <- element_names(ctx$user) %in% args  # unnamed arguments stay, for the parameters' error
  ctx$step_args <- ctx$user[taken]
  ctx$user <- ctx$user[!taken]
  ctx
}

# Fits the steps of `phase` in order. The stages' held-out rows get each
# design step's replay, as the engine sees them.
run_prefit_steps <- function(ctx, phase) {
  for (step in svf_prefit_steps()) {
    if (step$phase != phase || is.null(step$fit)) next
    ctx <- step$fit(ctx)
    if (step_replays(step, ctx$design$spec) && length(ctx$stages$held_x)) {
      ctx$stages$held_x <- lapply(ctx$stages$held_x, function(x) step$replay(ctx$design$spec, x))
    }
  }
  ctx
}

# Whether a step changes the design matrix of new rows of this design: it
# has a replay and its state is there.
step_replays <- function(step, design) !is.null(step$replay) && !is.null(step$state(list(design = design)))

# The design matrix `x` of new rows as the fitted steps change it.
replay_prefit_steps <- function(design, x) {
  for (step in svf_prefit_steps()) if (step_replays(step, design)) x <- step$replay(design, x)
  x
}

prefit_steps_replay <- function(design) any(vapply(svf_prefit_steps(), step_replays, NA, design))

check_prefit_steps <- function(model, fail) {
  for (step in svf_prefit_steps()) {
    if (!is.null(step$check)) step$check(step$state(model), model$design, fail)
  }
}

# Stops via differ(what) when a step's states of the two models cannot be
# combined.
combine_prefit_steps <- function(a, b, differ) {
  for (step in svf_prefit_steps()) {
    if (!is.null(step$combine)) step$combine(list(step$state(a), step$state(b)), differ)
  }
}

# The combine rule of most steps: the parts' states are equal.
equal_states <- function(what) {
  function(states, differ) {
    if (!all(vapply(states[-1], identical, NA, states[[1]]))) differ(what)
  }
}
