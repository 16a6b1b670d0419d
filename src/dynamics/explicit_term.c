/* dynamics: the registry of the force terms of the explicit solver (docs/developing.md, "A force term"): adding a
   term, with or without its ops table, and destroying them. Below both the set-up (explicit_setup.c) and the terms
   that register themselves (explicit_contact_term.c), which do not call each other. */
#include "explicitimpl.h"

PetscErrorCode SKExplicitAddTerm(SKExplicit ex, const char name[], SKExplicitForceFn fn, const SKExplicitTermOps *ops, void *ctx,
                                 PetscInt group)
{
  SKExplicitTerm *t;

  PetscFunctionBegin;
  PetscCheck(ex->nterms < SK_EXPLICIT_MAX_TERMS, ex->comm, PETSC_ERR_ARG_OUTOFRANGE, "At most %d force terms", SK_EXPLICIT_MAX_TERMS);
  PetscCheck(fn, ex->comm, PETSC_ERR_ARG_NULL, "Force term %s without a force function", name);
  t = &ex->terms[ex->nterms++];
  PetscCall(PetscStrncpy(t->name, name, sizeof(t->name)));
  t->fn    = fn;
  t->ctx   = ctx;
  t->ops   = ops;
  t->group = group;
  PetscCall(PetscCalloc1(ex->ndof, &t->f));
  PetscCall(PetscCalloc1(ex->ndof, &t->f_old));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitAddForceTerm(SKExplicit ex, const char name[], SKExplicitForceFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SKExplicitAddTerm(ex, name, fn, NULL, ctx, -1));
  /* the term acts from the current step on: recompute the forces so that a_n includes it */
  PetscCall(SKExplicitFinishStep(ex, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitDestroyTerms(SKExplicit ex)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < ex->nterms; i++) {
    if (ex->terms[i].ops && ex->terms[i].ops->destroy) PetscCall(ex->terms[i].ops->destroy(ex->terms[i].ctx)); /* the terms own theirs */
    PetscCall(PetscFree(ex->terms[i].f));
    PetscCall(PetscFree(ex->terms[i].f_old));
  }
  ex->nterms = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
