; Feature-dense task for tests/semantics_agree.rs: recursive and universal
; derived predicates (one under negation in a condition), a quantified
; conditional effect, a conditional numeric effect under a derived
; condition, state-dependent costs, assign, either-free type hierarchy
; with a constant, and negative preconditions.
(define (domain features)
  (:requirements :adl :derived-predicates :numeric-fluents :action-costs)
  (:types room item - object key - item)
  (:constants hall - room)
  (:predicates (at ?i - item ?r - room) (robot-in ?r - room) (door ?a ?b - room)
               (locked ?a ?b - room) (holding ?i - item) (lit ?r - room)
               (dark-everywhere) (reachable ?r - room) (fits ?k - key ?a ?b - room))
  (:functions (battery) (weight ?i - item) (load) (total-cost))
  (:derived (reachable ?r - room)
    (or (robot-in ?r)
        (exists (?s - room) (and (reachable ?s) (door ?s ?r) (not (locked ?s ?r))))))
  (:derived (dark-everywhere) (forall (?r - room) (not (lit ?r))))
  (:action move
    :parameters (?a ?b - room)
    :precondition (and (robot-in ?a) (door ?a ?b) (not (locked ?a ?b)) (>= (battery) 1))
    :effect (and (not (robot-in ?a)) (robot-in ?b) (decrease (battery) 1)
                 (increase (total-cost) (+ 1 (load)))
                 (forall (?i - item) (when (holding ?i) (and (not (at ?i ?a)) (at ?i ?b))))
                 (when (not (lit ?b)) (lit ?b))))
  (:action pick
    :parameters (?i - item ?r - room)
    :precondition (and (robot-in ?r) (at ?i ?r) (not (holding ?i)) (< (+ (load) (weight ?i)) 5))
    :effect (and (holding ?i) (increase (load) (weight ?i)) (increase (total-cost) 1)))
  (:action drop
    :parameters (?i - item ?r - room)
    :precondition (and (robot-in ?r) (holding ?i))
    :effect (and (not (holding ?i)) (decrease (load) (weight ?i)) (increase (total-cost) 1)))
  (:action unlock
    :parameters (?k - key ?a ?b - room)
    :precondition (and (holding ?k) (robot-in ?a) (locked ?a ?b) (fits ?k ?a ?b))
    :effect (and (not (locked ?a ?b)) (not (locked ?b ?a)) (increase (total-cost) 2)
                 (when (dark-everywhere) (increase (battery) 3))))
  (:action recharge
    :parameters ()
    :precondition (and (robot-in hall) (< (battery) 3))
    :effect (and (assign (battery) 6) (increase (total-cost) 3))))
