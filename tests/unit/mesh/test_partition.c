/* Unit test of the METIS partition and the distribution of a mesh over the ranks of PETSC_COMM_WORLD (run on 1 rank
   by default and on 2 ranks by tests.cmake): every element on exactly one rank, the local connectivity and
   coordinates equal to the whole mesh's, contiguous ownership, ghosts that agree with their owners through a
   ghosted Vec and the PetscSF, sets and boundary faces split without loss, and a deterministic partition. */
#include "mesh_test_util.h"

/* Gathers N local integers from every rank into *all (allocated, *total entries) on every rank. */
static PetscErrorCode GatherInts(PetscInt n, const PetscInt local[], PetscInt *total, PetscInt **all)
{
  PetscMPIInt size, count = (PetscMPIInt)n, *counts, *displs;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMalloc2(size, &counts, size + 1, &displs));
  PetscCallMPI(MPI_Allgather(&count, 1, MPI_INT, counts, 1, MPI_INT, PETSC_COMM_WORLD));
  displs[0] = 0;
  for (PetscMPIInt r = 0; r < size; r++) displs[r + 1] = displs[r] + counts[r];
  *total = displs[size];
  PetscCall(PetscMalloc1(*total + 1, all));
  PetscCallMPI(MPI_Allgatherv(local, count, MPIU_INT, *all, counts, displs, MPIU_INT, PETSC_COMM_WORLD));
  PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ALL (n entries) must be exactly 0 .. expected-1, each once. */
static PetscErrorCode CheckPermutation(const char what[], PetscInt n, PetscInt all[], PetscInt expected)
{
  PetscFunctionBegin;
  PetscCheck(n == expected, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " entries over the ranks, expected %" PetscInt_FMT, what,
             n, expected);
  PetscCall(PetscSortInt(n, all));
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(all[i] == i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt_FMT " is %" PetscInt_FMT " (missing or repeated)", what,
               i, all[i]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckDistribution(SKElementType type, const PetscInt cells[])
{
  const PetscReal lower[3] = {0, 0, 0}, upper[3] = {3, 2, 1};
  const SKElementTypeInfo *info;
  SKMesh mesh, dist, again;
  PetscMPIInt rank, size;
  PetscInt dim, N, NE, nn, ne, num_owned, start, gsize, num_ghost, total, *all, *part1, *part2, nsets;
  const PetscInt *nat_nodes, *nat_elements, *ghost_global, *nat2;
  const PetscMPIInt *ghost_rank;
  const PetscReal *X, *x;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(SKElementTypeGetInfo(type, &info));
  dim = info->dim;
  PetscCall(SKMeshCreateBox(PETSC_COMM_WORLD, type, cells, lower, upper, NULL, &mesh));
  PetscCall(SKMeshGetNodes(mesh, &N, &X));
  PetscCall(SKMeshGetNumElements(mesh, &NE));

  /* Deterministic: two METIS runs give the same parts, and with 2 parts both are used and roughly balanced. */
  PetscCall(PetscMalloc2(NE, &part1, NE, &part2));
  PetscCall(SKMeshPartition(mesh, 2, part1));
  PetscCall(SKMeshPartition(mesh, 2, part2));
  {
    PetscInt count0 = 0;

    for (PetscInt e = 0; e < NE; e++) {
      PetscCheck(part1[e] == part2[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: partition differs between two runs at element %" PetscInt_FMT,
                 info->name, e);
      count0 += part1[e] == 0;
    }
    /* METIS's default load imbalance tolerance is 3%; 40% is a loose bound that still catches an empty part. */
    PetscCheck(count0 > 0.4 * NE && count0 < 0.6 * NE, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: part 0 has %" PetscInt_FMT " of %" PetscInt_FMT " elements", info->name, count0, NE);
  }
  PetscCall(PetscFree2(part1, part2));

  PetscCall(SKMeshDistribute(mesh, &dist));
  if (type == SK_ELEMENT_H8) PetscCall(SKMeshView(dist, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(SKMeshGetNodes(dist, &nn, &x));
  PetscCall(SKMeshGetNumElements(dist, &ne));
  PetscCall(SKMeshGetNaturalNodes(dist, &nat_nodes));
  PetscCall(SKMeshGetNaturalElements(dist, &nat_elements));
  PetscCall(SKMeshGetNodeOwnership(dist, &num_owned, &start, &gsize));
  PetscCall(SKMeshGetGhostNodes(dist, &num_ghost, &ghost_global, &ghost_rank));
  PetscCheck(gsize == N && nn == num_owned + num_ghost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node counts", info->name);
  if (size > 1) {
    PetscInt ghosts_total;

    /* Interface nodes go to the lower rank, so the last rank must have ghosts (and rank 0 may have none). */
    PetscCallMPI(MPI_Allreduce(&num_ghost, &ghosts_total, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCheck(ne > 0 && ghosts_total > 0 && (rank < size - 1 || num_ghost > 0), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: rank %d has %" PetscInt_FMT " elements and %" PetscInt_FMT " ghosts", info->name, rank, ne, num_ghost);
  } else
    PetscCheck(num_ghost == 0 && ne == NE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: one rank has ghosts", info->name);

  /* Every element on exactly one rank, with the connectivity and coordinates of the whole mesh. */
  PetscCall(GatherInts(ne, nat_elements, &total, &all));
  PetscCall(CheckPermutation("elements", total, all, NE));
  PetscCall(PetscFree(all));
  for (PetscInt e = 0; e < ne; e++) {
    const PetscInt *local, *global;

    PetscCall(SKMeshGetElement(dist, e, NULL, NULL, &local));
    PetscCall(SKMeshGetElement(mesh, nat_elements[e], NULL, NULL, &global));
    for (PetscInt a = 0; a < info->num_nodes; a++)
      PetscCheck(nat_nodes[local[a]] == global[a], PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s: element %" PetscInt_FMT " node %" PetscInt_FMT " differs", info->name, nat_elements[e], a);
  }
  for (PetscInt i = 0; i < nn; i++)
    for (PetscInt d = 0; d < dim; d++)
      PetscCheck(x[i * dim + d] == X[nat_nodes[i] * dim + d], PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s: coordinates of local node %" PetscInt_FMT, info->name, i);

  /* Owned nodes: every node owned once; global numbers contiguous in rank order. */
  PetscCall(GatherInts(num_owned, nat_nodes, &total, &all));
  PetscCall(CheckPermutation("owned nodes", total, all, N));
  PetscCall(PetscFree(all));
  {
    PetscInt expected_start = 0;

    PetscCallMPI(MPI_Exscan(&num_owned, &expected_start, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    if (rank == 0) expected_start = 0;
    PetscCheck(start == expected_start, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: global start %" PetscInt_FMT ", expected %" PetscInt_FMT,
               info->name, start, expected_start);
  }
  for (PetscInt i = 0; i < num_ghost; i++) {
    PetscCheck(ghost_rank[i] != rank && (i == 0 || ghost_global[i] > ghost_global[i - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: ghost %" PetscInt_FMT " is owned here or out of order", info->name, i);
    PetscCheck(ghost_global[i] < start || ghost_global[i] >= start + num_owned, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: ghost %" PetscInt_FMT " has an owned global number", info->name, i);
  }

  /* Ghosted Vec: owners write their nodes' coordinates, the ghost update must bring each ghost its own coordinates. */
  {
    Vec v, lv;
    PetscScalar *a;

    PetscCall(SKMeshCreateGhostVec(dist, dim, &v));
    PetscCall(VecGhostGetLocalForm(v, &lv));
    PetscCall(VecGetArray(lv, &a));
    for (PetscInt i = 0; i < num_owned * dim; i++) a[i] = x[i];
    for (PetscInt i = num_owned * dim; i < nn * dim; i++) a[i] = -1;
    PetscCall(VecRestoreArray(lv, &a));
    PetscCall(VecGhostUpdateBegin(v, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGhostUpdateEnd(v, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArray(lv, &a));
    for (PetscInt i = 0; i < nn * dim; i++)
      PetscCheck(a[i] == x[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: ghosted Vec entry %" PetscInt_FMT " is %g, expected %g", info->name, i,
                 (double)PetscRealPart(a[i]), (double)x[i]);
    PetscCall(VecRestoreArray(lv, &a));
    PetscCall(VecGhostRestoreLocalForm(v, &lv));
    PetscCall(VecDestroy(&v));
  }

  /* PetscSF: broadcast of natural numbers reaches every ghost; a reduction counts on each owner the ranks that hold
     the node, which must equal the number of distinct parts among the node's elements in the whole mesh. */
  {
    PetscSF sf;
    PetscInt *value, *count, *parts;
    const PetscInt *off, *elist;

    PetscCall(SKMeshCreateNodeSF(dist, &sf));
    PetscCall(PetscMalloc2(nn, &value, nn, &count));
    for (PetscInt i = 0; i < nn; i++) {
      value[i] = i < num_owned ? nat_nodes[i] : -1;
      count[i] = 1;
    }
    PetscCall(PetscSFBcastBegin(sf, MPIU_INT, value, value, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(sf, MPIU_INT, value, value, MPI_REPLACE));
    for (PetscInt i = 0; i < nn; i++)
      PetscCheck(value[i] == nat_nodes[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: SF bcast to local node %" PetscInt_FMT, info->name, i);
    PetscCall(PetscSFReduceBegin(sf, MPIU_INT, count, count, MPI_SUM));
    PetscCall(PetscSFReduceEnd(sf, MPIU_INT, count, count, MPI_SUM));
    PetscCall(PetscMalloc1(NE, &parts));
    PetscCall(SKMeshPartition(mesh, size, parts));
    PetscCall(SKMeshGetNodeElements(mesh, &off, &elist));
    for (PetscInt i = 0; i < num_owned; i++) {
      const PetscInt v = nat_nodes[i];
      PetscInt seen[64], nseen = 0;

      for (PetscInt k = off[v]; k < off[v + 1]; k++) seen[nseen++] = parts[elist[k]];
      PetscCall(PetscSortRemoveDupsInt(&nseen, seen));
      PetscCheck(count[i] == nseen, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s: node %" PetscInt_FMT " is held by %" PetscInt_FMT " ranks, expected %" PetscInt_FMT, info->name, v, count[i], nseen);
    }
    PetscCall(PetscFree(parts));
    PetscCall(PetscFree2(value, count));
    PetscCall(PetscSFDestroy(&sf));
  }

  /* Sets and boundary faces: owned set nodes and local sides add up to the whole mesh's. */
  PetscCall(SKMeshGetNumNodeSets(dist, &nsets));
  for (PetscInt s = 0; s < nsets; s++) {
    PetscInt n, global, owned = 0, sum, sides, sides_global, side_sum;
    const PetscInt *nodes;
    const char *name;

    PetscCall(SKMeshGetNodeSet(dist, s, &name, &n, &nodes, &global));
    for (PetscInt i = 0; i < n; i++) owned += nodes[i] < num_owned;
    PetscCallMPI(MPI_Allreduce(&owned, &sum, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCheck(sum == global, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: node set %s has %" PetscInt_FMT " owned nodes over the ranks, expected %" PetscInt_FMT, info->name, name, sum, global);
    PetscCall(SKMeshGetSideSet(dist, s, NULL, &sides, NULL, NULL, &sides_global));
    PetscCallMPI(MPI_Allreduce(&sides, &side_sum, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCheck(side_sum == sides_global, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: side set %s split into %" PetscInt_FMT " sides, expected %" PetscInt_FMT, info->name, name, side_sum, sides_global);
  }
  {
    PetscInt nb_local, nb_sum, nb_global;

    PetscCall(SKMeshGetBoundaryFaces(dist, &nb_local, NULL, NULL));
    PetscCall(SKMeshGetBoundaryFaces(mesh, &nb_global, NULL, NULL));
    PetscCallMPI(MPI_Allreduce(&nb_local, &nb_sum, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCheck(nb_sum == nb_global, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: %" PetscInt_FMT " boundary faces over the ranks, expected %" PetscInt_FMT, info->name, nb_sum, nb_global);
  }

  /* Deterministic distribution: a second call gives the same local numbering. */
  PetscCall(SKMeshDistribute(mesh, &again));
  PetscCall(SKMeshGetNaturalNodes(again, &nat2));
  {
    PetscInt nn2;

    PetscCall(SKMeshGetNodes(again, &nn2, NULL));
    PetscCheck(nn2 == nn, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: second distribution has %" PetscInt_FMT " local nodes, not %" PetscInt_FMT,
               info->name, nn2, nn);
    for (PetscInt i = 0; i < nn; i++)
      PetscCheck(nat2[i] == nat_nodes[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: second distribution differs", info->name);
  }
  PetscCall(SKMeshDestroy(&again));
  PetscCall(SKMeshDestroy(&dist));
  PetscCall(SKMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PetscInt cells3[3] = {6, 4, 3}, cells2[2] = {10, 7};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(CheckDistribution(SK_ELEMENT_H8, cells3));
  PetscCall(CheckDistribution(SK_ELEMENT_T4, cells3));
  PetscCall(CheckDistribution(SK_ELEMENT_H27, cells3));
  PetscCall(CheckDistribution(SK_ELEMENT_Q4, cells2));
  PetscCall(CheckDistribution(SK_ELEMENT_T3, cells2));
  PetscCall(CheckDistribution(SK_ELEMENT_Q9, cells2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "partition and distribution: OK\n"));
  PetscCall(PetscFinalize());
  return 0;
}
