function out = scrabbleScore(mine, theirs)
% Octave's += and != read as command syntax to a MATLAB grammar (`myTotal` with the argument text
% "+= builtin(...)"), so the builtin calls on their right were never looked at.
myTotal = 0;
myTotal += builtin('sum', mine);
theirTotal = 0;
if numel(theirs) != 0, theirTotal = builtin('sum', theirs); end
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
