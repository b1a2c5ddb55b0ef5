function parts = split(str, delimiter)
% MATLAB's split (R2016b) for a char row: a column cell array of the pieces (whitespace by default).
  if nargin < 2
    parts = strsplit(strtrim(str));
  else
    parts = strsplit(str, delimiter);
  end
  parts = parts(:);
end
