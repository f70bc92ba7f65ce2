(define (domain wrong-arity)
  (:requirements :strips)
  (:predicates (on ?x ?y) (clear ?x))
  (:action a
    :parameters (?x ?y)
    :precondition (and (on ?x) (clear ?x ?y))
    :effect (on ?x ?y ?x)))
