(define (domain undeclared-predicate)
  (:requirements :strips)
  (:predicates (clear ?x) (holding ?x))
  (:action pick
    :parameters (?x)
    :precondition (and (clear ?x) (handempty))
    :effect (holding ?x)))
