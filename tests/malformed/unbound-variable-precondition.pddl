(define (domain unbound-precondition)
  (:requirements :strips)
  (:predicates (on ?x ?y) (clear ?x))
  (:action unstack
    :parameters (?x)
    :precondition (and (on ?x ?y) (clear ?x))
    :effect (clear ?y)))
