(define (domain undeclared-predicate-effect)
  (:requirements :strips)
  (:predicates (clear ?x) (holding ?x))
  (:action pick
    :parameters (?x)
    :precondition (clear ?x)
    :effect (and (holding ?x) (not (on-table ?x)))))
