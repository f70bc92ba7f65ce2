(domain no-define)
(:predicates (p))
