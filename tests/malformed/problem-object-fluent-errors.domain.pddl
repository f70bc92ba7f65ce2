(define (domain object-fluents)
  (:requirements :typing :negative-preconditions :object-fluents)
  (:types room key)
  (:predicates (open ?r - room))
  (:functions (key-of ?r - room) - key
              (size ?r - room) - number)
  (:action open-room
    :parameters (?r - room ?k - key)
    :precondition (not (open ?r))
    :effect (and (open ?r) (assign (key-of ?r) ?r) (assign (size ?r) ?k))))
