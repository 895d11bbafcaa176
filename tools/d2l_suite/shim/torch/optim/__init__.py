"""torch.optim: loom.optim's optimisers take torch's form (optim.SGD(net.parameters(), lr=))."""
from loom.optim import *  # noqa: F401,F403
from loom.optim import SGD, Adam, AdamW, lr_scheduler  # noqa: F401
