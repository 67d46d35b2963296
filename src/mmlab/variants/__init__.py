"""Games that are not one row of pegs: static Mastermind (``mmlab.variants.static``)."""
