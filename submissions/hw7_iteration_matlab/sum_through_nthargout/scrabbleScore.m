function out = scrabbleScore(mine, theirs)
% Hands the name 'sum' to Octave's nthargout, which calls it: library code that never names sum
% only passes on what the student gave it (the tripwire once counted the call as Octave's).
myTotal = nthargout(1, 'sum', mine);
theirTotal = nthargout(1, 'sum', theirs);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
