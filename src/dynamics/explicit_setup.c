/* Explicit solver setup: reads an <explicit> input (schema/explicit.xsd) into the solver state, checking the physics
   (every problem an input error at the offending element's line), distributes the mesh and assembles the lumped mass.
   This file holds the sequence of the set-up, time and output settings and the solver's life cycle; the parts it calls
   are in explicit_input.c (reading helpers), explicit_mesh_setup.c (sets, bodies, blocks, watch points),
   explicit_loads.c (conditions and loads) and explicit_contact_setup.c (contact pairs); the force terms are kept by
   explicit_term.c. */
#include "explicitimpl.h"
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* With -explicit_setup_view: one line per set-up phase on rank 0 with the wall time since the start of the set-up, the
   process CPU time (user + system, which a loaded machine does not inflate), the resident set size now and its peak so
   far (getrusage), each the maximum over the ranks. */
PetscErrorCode SKExplicitSetupView(SKExplicit ex, const char phase[])
{
  PetscLogDouble now, rss;
  struct rusage ru;
  PetscReal v[4];

  PetscFunctionBegin;
  /* SIGTERM/SIGINT between the phases of the set-up (ex->input is set until it ends), collectively: a parallel run stops
     here, a serial one also inside the long loops of a phase (SKSignalCheckSerial()) */
  if (ex->input) PetscCall(SKSignalCheck(ex->comm));
  PetscCall(PetscTime(&now));
  if (!ex->setup_view) PetscFunctionReturn(PETSC_SUCCESS);
  { /* the resident set now from /proc (PetscMemoryGetCurrentUsage may return the peak instead) */
    FILE *fp           = fopen("/proc/self/statm", "r");
    unsigned long size = 0, r = 0;
    if (fp && fscanf(fp, "%lu %lu", &size, &r) == 2)
      rss = (PetscLogDouble)r * (PetscLogDouble)sysconf(_SC_PAGESIZE);
    else
      PetscCall(PetscMemoryGetCurrentUsage(&rss));
    if (fp) (void)fclose(fp);
  }
  PetscCheck(!getrusage(RUSAGE_SELF, &ru), PETSC_COMM_SELF, PETSC_ERR_SYS, "getrusage() failed");
  v[0] = now - ex->setup_t0;
  v[1] = (PetscReal)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * (PetscReal)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  v[2] = rss / 1048576.0;
  v[3] = (PetscReal)ru.ru_maxrss / 1024.0; /* kB on Linux */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, v, 4, MPIU_REAL, MPIU_MAX, ex->comm));
  PetscCall(PetscPrintf(ex->comm, "setup %-32s wall %8.3f s  cpu %8.3f s  rss %8.1f MiB  peak %8.1f MiB\n", phase, (double)v[0],
                        (double)v[1], (double)v[2], (double)v[3]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With -explicit_setup_view: the partition's quality, elements, owned and ghost nodes per rank (min and max). */
static PetscErrorCode PartitionView(SKExplicit ex)
{
  PetscInt nghost, v[6], w[6];

  PetscFunctionBegin;
  if (!ex->setup_view) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKMeshGetGhostNodes(ex->mesh, &nghost, NULL, NULL));
  v[0] = -ex->nelem, v[1] = ex->nelem, v[2] = -ex->nowned, v[3] = ex->nowned, v[4] = -nghost, v[5] = nghost;
  PetscCallMPI(MPI_Allreduce(v, w, 6, MPIU_INT, MPI_MAX, ex->comm));
  PetscCall(PetscPrintf(ex->comm,
                        "setup partition over %d ranks: elements %" PetscInt_FMT "-%" PetscInt_FMT ", owned nodes %" PetscInt_FMT
                        "-%" PetscInt_FMT ", ghost nodes %" PetscInt_FMT "-%" PetscInt_FMT " per rank\n",
                        ex->size, -w[0], w[1], -w[2], w[3], -w[4], w[5]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadTimeAndOutput(SKExplicit ex, SKNode root)
{
  SKNode time, node;
  PetscReal dt = 0;
  PetscBool has_dt;
  PetscInt i = 0;

  PetscFunctionBegin;
  PetscCall(SKInputRequireChild(ex->input, root, "time", &time));
  PetscCall(SKInputRequireReal(ex->input, time, "end", &ex->t_end));
  PetscCall(SKInputCheckPositive(ex->input, time, "end", ex->t_end));
  ex->safety = 0.9;
  PetscCall(SKInputGetReal(ex->input, time, "safety", &ex->safety, NULL));
  PetscCall(SKInputCheck(ex->input, time, ex->safety > 0 && ex->safety <= 1, "safety = %g must be in (0, 1]", (double)ex->safety));
  if (ex->unsafe_safety > 0) ex->safety = ex->unsafe_safety; /* -explicit_unsafe_safety, read with the solver's options */
  PetscCall(SKInputGetReal(ex->input, time, "dt", &dt, &has_dt));
  PetscCall(SKExplicitCriticalTimeStep(ex));
  /* a zero or non-finite step would run no steps (or forever) and report success */
  PetscCall(SKInputCheck(ex->input, time, ex->dt_critical > 0 && PetscIsNormalReal(ex->dt_critical),
                         "the critical time step is %g s (element-size estimate %g s), not a positive finite number: look for "
                         "coincident nodes, a zero density or an infinite modulus or penalty",
                         (double)ex->dt_critical, (double)ex->dt_element));
  if (has_dt) {
    PetscCall(SKInputCheckPositive(ex->input, time, "dt", dt));
    PetscCall(SKInputCheck(ex->input, time, dt <= ex->dt_critical,
                           "dt = %g s is above the critical time step %g s (2/omega_max of the mesh%s; element-size estimate %g s): use dt "
                           "<= %g s, or leave dt out to "
                           "get safety * critical",
                           (double)dt, (double)ex->dt_critical,
                           ex->critical_type != SK_EXPLICIT_CRITICAL_BOUND
                               ? ""
                               : (ex->critical_element ? " from the element bound, tighter by -explicit_critical_step power"
                                                       : " from the stiffness bound, tighter by -explicit_critical_step power"),
                           (double)ex->dt_element, (double)(ex->safety * ex->dt_critical)));
    ex->dt = dt;
    /* above the contact dt the one-sided penalty may gain energy: the run-time energy check watches for it */
    if (dt > ex->dt_contact)
      PetscCall(PetscPrintf(ex->comm,
                            "warning: dt = %g s is above the contact dt %g s (the step the stiffest contact node allows with the margin "
                            "one-sided switching needs); the energy check stops the run if the contact gains energy\n",
                            (double)dt, (double)ex->dt_contact));
  } else { /* the largest dt <= safety * critical (with the friction at the estimated normal load and the contact dt) that lands
              on the end time */
    const PetscReal n = PetscCeilReal(ex->t_end / (ex->safety * PetscMin(ex->dt_friction, ex->dt_contact)));
    ex->dt            = ex->t_end / n;
  }
  /* the step counter is a PetscInt: an overflowed count runs no steps and reports success */
  PetscCall(SKInputCheck(ex->input, time, ex->t_end / ex->dt < (PetscReal)PETSC_MAX_INT,
                         "end = %g s needs %g steps of dt = %g s, more than the %" PetscInt_FMT " a run can count: shorten the run or "
                         "coarsen the mesh",
                         (double)ex->t_end, (double)(ex->t_end / ex->dt), (double)ex->dt, (PetscInt)PETSC_MAX_INT));

  ex->history_interval = 1;
  /* fields by default: about SK_EXPLICIT_DEFAULT_FRAMES frames over the run (plus the initial one), so that the fields.pvd
     a user opens in ParaView exists and holds a sensible number of steps; fields="0" writes none */
  ex->field_interval = (PetscInt)PetscMax(1, PetscCeilReal(PetscFloorReal(ex->t_end / ex->dt + 0.5) / SK_EXPLICIT_DEFAULT_FRAMES));
  PetscCall(SKNodeGetChild(root, "output", &node));
  if (node) {
    PetscCall(SKInputGetInt(ex->input, node, "fields", &ex->field_interval, NULL));
    PetscCall(SKInputGetInt(ex->input, node, "histories", &ex->history_interval, NULL));
  }
  { /* the field frames and histories of any input from the command line, e.g. ParaView frames of an input that sets
       fields="0", the energy history of a campaign's realisation input that sets histories="0"; a block of their own
       (title distinct from the solver's block, which -help would otherwise list only once) because their defaults
       depend on the time step */
    SKOptionsChecks checks = {PETSC_FALSE, ""};
    PetscOptionsBegin(ex->comm, NULL, "explicit solver output (the command line and <options> override <output>)", NULL);
    PetscCall(SKOptionsInt(&checks, "-explicit_field_interval", "VTK fields every this many steps (0: none); replaces <output fields>", "",
                           ex->field_interval, &ex->field_interval, NULL, "[0, inf)"));
    PetscCall(SKOptionsInt(&checks, "-explicit_history_interval", "histories every this many steps (0: none); replaces <output histories>",
                           "", ex->history_interval, &ex->history_interval, NULL, "[0, inf)"));
    PetscOptionsEnd();
    PetscCall(SKOptionsCheck(ex->comm, &checks));
  }
  /* the energy check runs at the history samples; a run without histories still gets it, about
     SK_EXPLICIT_ENERGY_CHECKS times and at its last step (a blow-up must not end with exit 0 because nothing was written) */
  ex->energy_check_interval =
      ex->history_interval > 0 ? ex->history_interval
                               : (PetscInt)PetscMax(1, PetscCeilReal(PetscFloorReal(ex->t_end / ex->dt + 0.5) / SK_EXPLICIT_ENERGY_CHECKS));
  PetscCall(SKNodeGetChild(root, "checkpoint", &node));
  ex->checkpoint_keep = 2;
  if (node) {
    PetscCall(SKInputRequireInt(ex->input, node, "interval", &ex->checkpoint_interval));
    PetscCall(SKInputGetInt(ex->input, node, "keep", &ex->checkpoint_keep, NULL));
  }
  ex->nsethist = SKNodeCountChildren(root, "history");
  PetscCall(PetscCalloc1(ex->nsethist, &ex->sethist));
  for (SKNode item = SKNodeFirstChild(root, "history"); item; item = SKNodeNextSibling(item, "history"), i++) {
    SKExplicitSetHistory *h = &ex->sethist[i];
    PetscBool found;
    PetscCall(SKExplicitNodeSetFromInput(ex, item, "nodeset", &h->n, &h->nodes, &h->global_size));
    PetscCall(SKInputGetString(ex->input, item, "name", h->name, sizeof(h->name), &found));
    if (!found) PetscCall(SKInputRequireString(ex->input, item, "nodeset", h->name, sizeof(h->name)));
    for (PetscInt j = 0; j < i; j++)
      PetscCall(SKInputCheck(ex->input, item, strcmp(h->name, ex->sethist[j].name), "history '%s' is defined twice", h->name));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solver's options whose defaults do not depend on the input, in one block (blocks with the same title would be
   listed by -help only once), read before the set-up's first phase that -explicit_setup_view reports on. The output
   intervals, whose defaults depend on the time step, are read in ReadTimeAndOutput(). */
static PetscErrorCode ReadOptions(SKExplicit ex)
{
  SKOptionsChecks checks = {PETSC_FALSE, ""};

  PetscFunctionBegin;
  ex->energy_tolerance = 0.05;
  ex->power_its        = 2000;
  ex->power_rtol       = 1e-6;
  ex->kill_step        = -1;
  ex->critical_type    = SK_EXPLICIT_CRITICAL_AUTO;
  ex->unsafe_safety    = 0;
  PetscOptionsBegin(ex->comm, NULL, "explicit solver", NULL);
  PetscCall(SKOptionsBool(&checks, "-explicit_setup_view", "print time and memory after each phase of the set-up and after the time loop",
                          "", ex->setup_view, &ex->setup_view, NULL));
  PetscCall(SKOptionsReal(&checks, "-explicit_energy_tolerance", "allowed energy-balance drift, fraction of the energy in play", "",
                          ex->energy_tolerance, &ex->energy_tolerance, NULL, "(0, inf)"));
  PetscCall(SKOptionsEnum(&checks, "-explicit_critical_step",
                          "how the critical time step is found (auto: power on small meshes, bound on large ones)", "",
                          SKExplicitCriticalStepTypes, (PetscEnum)ex->critical_type, (PetscEnum *)&ex->critical_type, NULL));
  PetscCall(SKOptionsInt(&checks, "-explicit_power_maxit", "power iterations for the critical time step", "", ex->power_its, &ex->power_its,
                         NULL, "[1, inf)"));
  PetscCall(SKOptionsReal(&checks, "-explicit_power_rtol", "relative change that ends the power iteration", "", ex->power_rtol,
                          &ex->power_rtol, NULL, "(0, 1)"));
  /* stability studies only: a safety factor above 1 on purpose (the energy check must then stop the run); 0: not given */
  PetscCall(SKOptionsReal(&checks, "-explicit_unsafe_safety", "stability studies: replaces <time safety> and may exceed 1 (0: not given)",
                          "", ex->unsafe_safety, &ex->unsafe_safety, NULL, "(0, inf)"));
  PetscCall(SKOptionsInt(&checks, "-explicit_kill_at_step", "test hook: SIGKILL after this step (-1: never)", "", ex->kill_step,
                         &ex->kill_step, NULL, "[-1, inf)"));
  PetscCall(SKOptionsEnum(&checks, "-explicit_energy_booking", "test hook: how terms that book their own energy enter the balance", "",
                          SKExplicitEnergyBookings, (PetscEnum)ex->booking, (PetscEnum *)&ex->booking, NULL));
  PetscOptionsEnd();
  PetscCall(SKOptionsCheck(ex->comm, &checks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dof-level star forest from the mesh's node star forest: ghost dof (node, d) -> owner's (node, d). */
static PetscErrorCode CreateDofSF(SKExplicit ex)
{
  PetscSF nsf;
  PetscInt nroots, nleaves, *ilocal;
  const PetscInt *nl;
  const PetscSFNode *nr;
  PetscSFNode *iremote;

  PetscFunctionBegin;
  PetscCall(SKMeshCreateNodeSF(ex->mesh, &nsf));
  PetscCall(PetscSFGetGraph(nsf, &nroots, &nleaves, &nl, &nr));
  PetscCall(PetscMalloc1(nleaves * ex->dim, &ilocal));
  PetscCall(PetscMalloc1(nleaves * ex->dim, &iremote));
  for (PetscInt i = 0; i < nleaves; i++)
    for (PetscInt d = 0; d < ex->dim; d++) {
      ilocal[i * ex->dim + d]        = (nl ? nl[i] : i) * ex->dim + d;
      iremote[i * ex->dim + d].rank  = nr[i].rank;
      iremote[i * ex->dim + d].index = nr[i].index * ex->dim + d;
    }
  PetscCall(PetscSFCreate(ex->comm, &ex->sf));
  PetscCall(PetscSFSetGraph(ex->sf, nroots * ex->dim, nleaves * ex->dim, ilocal, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(ex->sf));
  ex->node_sf = nsf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Log events of the explicit solver (once per process). */
static PetscErrorCode RegisterEvents(void)
{
  static PetscBool done = PETSC_FALSE;

  PetscFunctionBegin;
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  done = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("ExplicitIntForce", SK_CLASSID, &SK_EXPLICIT_InternalForce));
  PetscCall(PetscLogEventRegister("ExplicitExchange", SK_CLASSID, &SK_EXPLICIT_Exchange));
  PetscCall(PetscLogEventRegister("ExplicitUpdate", SK_CLASSID, &SK_EXPLICIT_Update));
  PetscCall(PetscLogEventRegister("ExplicitOutput", SK_CLASSID, &SK_EXPLICIT_Output));
  PetscCall(PetscLogEventRegister("ExplicitCritDt", SK_CLASSID, &SK_EXPLICIT_CriticalStep));
  PetscCall(PetscLogEventRegister("ExplicitMass", SK_CLASSID, &SK_EXPLICIT_Mass));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitCreateFromInput(SKInput input, SKExplicit *exp)
{
  PetscFunctionBegin;
  PetscCall(SKExplicitCreateFromInputMapped(input, NULL, NULL, exp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitCreateFromInputMapped(SKInput input, SKExplicitNodeMapFn map, void *map_ctx, SKExplicit *exp)
{
  SKExplicit ex;
  SKNode root, mesh_node, desc;

  PetscFunctionBegin;
  PetscCall(RegisterEvents());
  PetscCall(PetscNew(&ex));
  *exp      = ex;
  ex->input = input;
  PetscCall(PetscTime(&ex->setup_t0));
  PetscCall(SKInputGetComm(input, &ex->comm));
  PetscCall(ReadOptions(ex));
  PetscCallMPI(MPI_Comm_rank(ex->comm, &ex->rank));
  PetscCallMPI(MPI_Comm_size(ex->comm, &ex->size));
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKNodeGetChild(root, "description", &desc));
  if (desc) PetscCall(SKInputGetText_Node(input, desc, ex->description, sizeof(ex->description)));

  /* replicated mesh, input sets, reference check, watch points; then distribution */
  PetscCall(SKInputRequireChild(input, root, "mesh", &mesh_node));
  {
    SKNode patch;
    PetscCall(SKNodeGetChild(mesh_node, "patch", &patch));
    if (patch)
      PetscCall(SKMeshCreateFromPatchInput(input, mesh_node, &ex->rmesh)); /* NURBS patches (fem/bezier.c) */
    else
      PetscCall(SKMeshCreateFromInput(input, mesh_node, &ex->rmesh));
  }
  PetscCall(SKExplicitSetupView(ex, "replicated mesh"));
  PetscCall(SKMeshGetDimension(ex->rmesh, &ex->dim));
  PetscCall(SKExplicitAddInputSets(ex, root, ex->rmesh));
  if (map) { /* after the input sets (found on the generated geometry), before the reference check */
    PetscInt nn;
    PetscReal *coords;
    PetscCall(SKMeshGetNodesWrite(ex->rmesh, &nn, &coords));
    PetscCall(map(map_ctx, nn, ex->dim, coords));
  }
  PetscCall(SKExplicitCheckReference(ex, mesh_node, ex->rmesh));
  PetscCall(SKExplicitFindBodies(ex, ex->rmesh));
  PetscCall(SKExplicitReadWatchPoints(ex, root, ex->rmesh));
  PetscCall(SKExplicitSetDigests(ex, ex->rmesh));
  PetscCall(SKExplicitSetupView(ex, "input sets, checks, watch points"));
  PetscCall(SKMeshDistribute(ex->rmesh, &ex->mesh));
  PetscCall(SKMeshDestroy(&ex->rmesh));
  PetscCall(SKExplicitSetupView(ex, "distributed, replicated freed"));

  PetscCall(SKMeshGetNodes(ex->mesh, &ex->nlocal, &ex->X));
  PetscCall(SKMeshGetNumElements(ex->mesh, &ex->nelem));
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, &ex->nowned, NULL, NULL));
  PetscCall(SKMeshGetNaturalNodes(ex->mesh, &ex->natural_nodes));
  PetscCall(SKMeshGetNaturalElements(ex->mesh, &ex->natural_elements));
  ex->ndof = ex->nlocal * ex->dim;
  for (PetscInt i = 0; i < ex->nwatch; i++) {
    const PetscInt natural = ex->watch[i].node;
    ex->watch[i].node      = -1;
    for (PetscInt p = 0; p < ex->nowned; p++)
      if (ex->natural_nodes[p] == natural) ex->watch[i].node = p;
    for (PetscInt a = 0; a < ex->watch[i].n; a++) {
      const PetscInt na     = ex->watch[i].nodes[a];
      ex->watch[i].nodes[a] = -1;
      for (PetscInt p = 0; p < ex->nowned; p++)
        if (ex->natural_nodes[p] == na) ex->watch[i].nodes[a] = p;
    }
  }
  PetscCall(CreateDofSF(ex));
  PetscCall(SKExplicitSetupView(ex, "star forests"));
  PetscCall(PartitionView(ex));

  PetscCall(PetscCalloc1(ex->nlocal, &ex->mass));
  PetscCall(PetscCalloc4(ex->ndof, &ex->u, ex->ndof, &ex->v, ex->ndof, &ex->a, ex->ndof, &ex->vh));
  PetscCall(PetscCalloc2(ex->ndof, &ex->f, ex->ndof, &ex->react));
  PetscCall(PetscCalloc1(ex->ndof, &ex->fwork)); /* fwork and fwork_new are swapped each step: separate blocks */
  PetscCall(PetscCalloc1(ex->ndof, &ex->fwork_new));
  PetscCall(SKExplicitSetupView(ex, "state arrays"));
  PetscCall(SKExplicitReadBlocks(ex, root));
  PetscCall(SKExplicitAssembleNodal(ex, ex->mass, 1));
  if (ex->mass_iterated) PetscCall(SKExplicitAssembleNodal(ex, ex->mass_other, 1));
  PetscCall(SKExplicitSetupView(ex, "blocks, lumped mass"));
  PetscCall(SKExplicitReadLoadsAndConditions(ex, root));
  PetscCall(SKExplicitCompressLoads(ex));
  PetscCall(SKExplicitSetupView(ex, "loads, conditions"));
  PetscCall(SKExplicitMassSetUp(ex)); /* its weights need the prescribed dofs */

  PetscCall(SKExplicitReadContacts(ex, root)); /* registered as force terms before the time step: the pairs bound it */
  PetscCall(ReadTimeAndOutput(ex, root));
  PetscCall(SKExplicitSetupView(ex, "critical step, output"));
  for (PetscInt k = 0; k < ex->nterms; k++) { /* e.g. the friction moduli, known only during the run: checked there */
    SKExplicitTerm *term = &ex->terms[k];
    if (term->ops && term->ops->setstep)
      PetscCall(term->ops->setstep(term->ctx, ex->dt, 4 / PetscSqr(ex->dt_critical), SKExplicitContactMass(ex)));
  }

  /* accelerations at t = 0 */
  PetscCall(SKExplicitFinishStep(ex, PETSC_TRUE));
  PetscCall(SKExplicitSetupView(ex, "forces at t = 0 (set-up done)"));
  ex->input = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitDestroy(SKExplicit *exp)
{
  SKExplicit ex = *exp;

  PetscFunctionBegin;
  if (!ex) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    if (ex->blocks[b].basis) PetscCall(SKBasisDestroy(&ex->blocks[b].basis));
    if (ex->blocks[b].mat) PetscCall(SKMaterialDestroy(&ex->blocks[b].mat));
    PetscCall(SKFEMMassOperatorDestroy(&ex->blocks[b].mop));
    PetscCall(PetscFree(ex->blocks[b].react_elem));
  }
  PetscCall(PetscFree(ex->blocks));
  for (PetscInt i = 0; i < ex->nbc; i++) PetscCall(SKTimeFunctionReset(&ex->bc[i].f));
  for (PetscInt i = 0; i < ex->nloads; i++) {
    PetscCall(SKTimeFunctionReset(&ex->loads[i].f));
    PetscCall(PetscFree(ex->loads[i].p));
    PetscCall(PetscFree(ex->loads[i].idx));
  }
  PetscCall(SKExplicitDestroyTerms(ex));
  PetscCall(PetscFree(ex->body));
  PetscCall(PetscFree(ex->bc));
  PetscCall(PetscFree(ex->dof_bc));
  PetscCall(PetscFree(ex->loads));
  PetscCall(PetscFree(ex->springs));
  PetscCall(PetscFree(ex->watch));
  PetscCall(PetscFree(ex->sethist));
  PetscCall(PetscFree(ex->mass));
  PetscCall(PetscFree3(ex->mass_work[0], ex->mass_work[1], ex->mass_work[2]));
  PetscCall(PetscFree(ex->mass_other));
  PetscCall(PetscFree(ex->mass_diag));
  PetscCall(PetscFree(ex->mass_contact));
  PetscCall(PetscFree4(ex->u, ex->v, ex->a, ex->vh));
  PetscCall(PetscFree2(ex->f, ex->react));
  PetscCall(PetscFree(ex->fwork));
  PetscCall(PetscFree(ex->fwork_new));
  PetscCall(PetscSFDestroy(&ex->sf));
  PetscCall(PetscSFDestroy(&ex->node_sf));
  PetscCall(SKPVDDestroy(&ex->pvd));
  PetscCall(SKMeshDestroy(&ex->mesh));
  PetscCall(SKMeshDestroy(&ex->rmesh));
  PetscCall(PetscFree(ex->options_run));
  PetscCall(PetscFree(ex));
  *exp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
