"""Training loops over loom.nn and loom.optim, d2l style.

  trainer.py     loom.Trainer: fit(model, data), one jitted step per batch
  _parallel.py   Trainer(num_gpus=k): one process, k replicas, gradients all-reduced
  data.py        loom.data: DataLoader, batches (prefetched to a GPU through pinned memory)

Nothing is imported here: loom.data loads without the Trainer and the layers it needs.
"""
