(define (domain wrong-arity-function)
  (:requirements :numeric-fluents)
  (:predicates (p ?x))
  (:functions (load ?x))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (increase (load) 1)))
