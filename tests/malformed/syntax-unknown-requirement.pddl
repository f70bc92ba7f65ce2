(define (domain unknown-requirement)
  (:requirements :strips :teleportation)
  (:predicates (p))
  (:action a :effect (p)))
